import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ApiRuntime } from './api-runtime';
import { ScopeGuard } from './auth/scope.guard';
import { ApprovalsController } from './controllers/approvals.controller';
import { AttemptsController } from './controllers/attempts.controller';
import { CandidatesController } from './controllers/candidates.controller';
import { CapabilitiesController } from './controllers/capabilities.controller';
import { CheckpointsController } from './controllers/checkpoints.controller';
import { EventsController } from './controllers/events.controller';
import { HealthController } from './controllers/health.controller';
import { LedgerController } from './controllers/ledger.controller';
import { MetricsController } from './controllers/metrics.controller';
import { PlansController } from './controllers/plans.controller';
import { ProjectionsController } from './controllers/projections.controller';
import { ProposalsController } from './controllers/proposals.controller';
import { ReplayController } from './controllers/replay.controller';
import { TargetsController } from './controllers/targets.controller';
import { UploadsController } from './controllers/uploads.controller';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { OperationRunner } from './operations/operation-runner';

export const CONTROLLERS = [
  TargetsController,
  UploadsController,
  ProposalsController,
  CheckpointsController,
  AttemptsController,
  LedgerController,
  ReplayController,
  CandidatesController,
  PlansController,
  ApprovalsController,
  EventsController,
  ProjectionsController,
  CapabilitiesController,
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
