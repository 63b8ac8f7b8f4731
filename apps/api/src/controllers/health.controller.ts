import { Controller, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { pendingMigrations } from '@palimpsest/store/migrate';
import { projectorStatus } from '@palimpsest/application/queries/projector-status.handler';
import { ApiRuntime } from '../api-runtime';
import { ExecutorPresence } from '../executors/executor-presence';
import { gatewayError } from '../errors/api-error';
import { GatewayEndpoint } from '../routes/endpoint.decorators';

interface TerminusReport {
  status: string;
  error?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * Terminus's report, its `error` also the gateway's envelope (code, reason, message, retryable,
 * trace_id) beside the failing indicators, so a client that reads every non-2xx answer as an
 * envelope reads this one too.
 */
function downReport(report: TerminusReport, traceId: string): TerminusReport {
  const failing = Object.keys(report.error ?? {});
  const [reason, message] = failing.includes('database')
    ? ['database_unavailable', 'The database does not answer; the gateway serves again as soon as it does.']
    : failing.includes('migrations')
      ? ['migrations_pending', 'Migrations are pending: run palimpsest migrate (or restart the gateway, which applies them).']
      : ['projections_status_unavailable', 'The asynchronous consumers\' status could not be read in time; the database answers.'];
  const envelope = gatewayError(503, 'unavailable', reason, message).body.error as Record<string, unknown>;
  return { ...report, error: { ...report.error, ...envelope, trace_id: traceId } };
}

/**
 * /health: 200 when the database answers and every migration is applied, else 503 with the details.
 * info.projections lists every asynchronous consumer (checkpoint, lag, state, leader); when one lags
 * by more than PALIMPSEST_PROJECTION_LAG_DEGRADED_S the report's status is `degraded`, still 200: the
 * gateway serves every request (only asynchronous read models are stale), so a load balancer keeps it.
 * A database that does not answer at all is reported down after HEALTH_TIMEOUT_MS: a load balancer's
 * probe gets its answer in about a second, not after the store's own (longer) statement bounds.
 * info.executors lists the executors connected now (`palimpsest connect`, docs/executors.md); it is
 * always up, since the gateway serves without any.
 */
const HEALTH_TIMEOUT_MS = 900;

@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly runtime: ApiRuntime,
    private readonly executors: ExecutorPresence,
  ) {}

  @GatewayEndpoint('health', [503])
  @ApiResponse({ status: 200, description: 'Terminus report: status ok (degraded: an asynchronous consumer lags past the threshold), info.database, info.migrations, info.projections, info.executors.' })
  @ApiResponse({ status: 503, description: 'Terminus report with status error; under error, the failing indicators beside the envelope fields (code unavailable, reason, message, retryable, trace_id). While shutting down: an ErrorBody.' })
  async check(@Res() reply: FastifyReply) {
    const { db } = this.runtime;
    try {
      const report = await this.health.check([
        () =>
          this.indicators
            .check('database')
            .attempt(async () => {
              await db.query('SELECT 1');
              return { backend: db.kind };
            })
            .withTimeout(HEALTH_TIMEOUT_MS),
        () =>
          this.indicators
            .check('migrations')
            .attempt(async () => {
              const pending = await pendingMigrations(db);
              if (pending.length) throw new Error(`pending migrations: ${pending.join(', ')}`);
              return { pending: 0 };
            })
            .withTimeout(HEALTH_TIMEOUT_MS),
        () =>
          this.indicators
            .check('projections')
            .attempt(async () => {
              const { status, ...projections } = await projectorStatus(db, this.runtime.config.projectionLagDegradedS);
              return { degraded: status === 'degraded', ...projections };
            })
            .withTimeout(HEALTH_TIMEOUT_MS),
        () => this.indicators.check('executors').up(this.executors.report()),
      ]);
      const degraded = (report.info?.projections as { degraded?: boolean } | undefined)?.degraded === true;
      void reply.code(200).send(degraded ? { ...report, status: 'degraded' } : report);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      void reply.code(503).header('Retry-After', '2').send(downReport(error.getResponse() as TerminusReport, reply.request.id));
    }
  }
}
