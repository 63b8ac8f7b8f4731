import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ApiRuntime } from './api-runtime';
import { ScopeGuard } from './auth/scope.guard';
import { AuditViewController } from './audit-view/audit-view.controller';
import { AdminTokensController } from './controllers/admin-tokens.controller';
import { AUDIT_VERIFIER_KEY, AuditKeyController } from './controllers/audit-key.controller';
import { AdminController } from './controllers/admin.controller';
import { AdminLogController } from './controllers/admin-log.controller';
import { ApprovalsController } from './controllers/approvals.controller';
import { EventsController } from './controllers/events.controller';
import { HealthController } from './controllers/health.controller';
import { MetricsController } from './controllers/metrics.controller';
import { OperationsController } from './controllers/operations.controller';
import { ProjectionsController } from './controllers/projections.controller';
import { ReplayController } from './controllers/replay.controller';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { OperationRunner } from './operations/operation-runner';
import { ExecutorPresence } from './executors/executor-presence';

export const CONTROLLERS = [
  OperationsController,
  ReplayController,
  ApprovalsController,
  EventsController,
  ProjectionsController,
  AdminController,
  AdminTokensController,
  AdminLogController,
  HealthController,
  MetricsController,
  AuditKeyController,
  AuditViewController,
];

@Module({})
export class ApiModule {
  /** `auditKey`: the verifier key of the audit log's checkpoints, null when it is off; `executors`: the connected executors (/health). */
  static register(runtime: ApiRuntime, auditKey: string | null = null, executors = new ExecutorPresence()): DynamicModule {
    return {
      module: ApiModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: CONTROLLERS,
      providers: [
        { provide: ApiRuntime, useValue: runtime },
        { provide: AUDIT_VERIFIER_KEY, useValue: auditKey },
        { provide: ExecutorPresence, useValue: executors },
        OperationRunner,
        { provide: APP_GUARD, useClass: ScopeGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
