import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ApiRuntime } from './api-runtime';
import { ScopeGuard } from './auth/scope.guard';
import { AdminTokensController } from './controllers/admin-tokens.controller';
import { AdminController } from './controllers/admin.controller';
import { ApprovalsController } from './controllers/approvals.controller';
import { EventsController } from './controllers/events.controller';
import { HealthController } from './controllers/health.controller';
import { MetricsController } from './controllers/metrics.controller';
import { OperationsController } from './controllers/operations.controller';
import { ProjectionsController } from './controllers/projections.controller';
import { ReplayController } from './controllers/replay.controller';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { OperationRunner } from './operations/operation-runner';

export const CONTROLLERS = [
  OperationsController,
  ReplayController,
  ApprovalsController,
  EventsController,
  ProjectionsController,
  AdminController,
  AdminTokensController,
  HealthController,
  MetricsController,
];

@Module({})
export class ApiModule {
  static register(runtime: ApiRuntime): DynamicModule {
    return {
      module: ApiModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: CONTROLLERS,
      providers: [
        { provide: ApiRuntime, useValue: runtime },
        OperationRunner,
        { provide: APP_GUARD, useClass: ScopeGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
