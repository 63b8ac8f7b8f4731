import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import type { AppendBatchObserver } from '@palimpsest/store/append-batcher';
import { specOf } from '../routes/route-table';
import type { InstrumentedDb } from './instrumented-db';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Bounded label value: failure_reason for rejections, the code for refusals, "none" otherwise. */
function reasonOf(result: Record<string, unknown>): string {
  if (result.status === 'rejected') return String(result.failure_reason ?? 'unknown');
  if (result.status === 'invalid_argument' || result.status === 'not_found') return String(result.code ?? 'unknown');
  return 'none';
}

/** Every metric the gateway exports, on its own registry (nothing global). */
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly httpRequests = new Counter({
    name: 'palimpsest_http_requests_total',
    help: 'HTTP requests answered, by route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'palimpsest_http_request_duration_seconds',
    help: 'Time from request to the end of the response, by route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly operationDuration = new Histogram({
    name: 'palimpsest_operation_duration_seconds',
    help: 'Time spent in dispatch() per catalog operation and result status (error = thrown)',
    labelNames: ['operation', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly submissions = new Counter({
    name: 'palimpsest_submissions_total',
    help: 'Write operations by result status and reason (failure_reason or refusal code)',
    labelNames: ['operation', 'status', 'reason'] as const,
    registers: [this.registry],
  });
  private readonly transactionDuration = new Histogram({
    name: 'palimpsest_db_transaction_duration_seconds',
    help: 'Database transactions, BEGIN to COMMIT or ROLLBACK',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly commitBatch = new Histogram({
    name: 'palimpsest_commit_batch_size',
    help: 'Submits committed by one optimistic statement (group commit: more than one under load)',
    buckets: [1, 2, 4, 8],
    registers: [this.registry],
  });
  private readonly commitRetried = new Counter({
    name: 'palimpsest_commit_batches_retried_total',
    help: 'Batched statements undone as a whole (a guard refused or a submit failed), then retried one submit at a time',
    registers: [this.registry],
  });
  /** The store's AppendBatcher reports here. */
  readonly commits: AppendBatchObserver = {
    committed: (appends) => this.commitBatch.observe(appends),
    retried: () => this.commitRetried.inc(),
  };
  readonly saturated = new Counter({
    name: 'palimpsest_http_saturated_total',
    help: 'Requests refused with 429 because every operation slot and the queue were taken',
    registers: [this.registry],
  });

  /** `pgPoolMax`: the PostgreSQL pool's size as configured (PALIMPSEST_PG_POOL_MAX). */
  constructor(db: InstrumentedDb, pgPoolMax: number, load: () => { active: number; queued: number; streams: number }) {
    collectDefaultMetrics({ register: this.registry });
    const poolMax = db.kind === 'postgres' ? pgPoolMax : 1;
    this.gauge('palimpsest_db_pool_max', 'Connections the store may open (PGlite: one, shared in turn)', () => poolMax);
    this.gauge('palimpsest_db_connections_busy', 'Open transactions plus running standalone queries', () => db.busy);
    this.gauge('palimpsest_db_connections_waiting', 'Busy beyond the pool size: work waiting for a connection', () => Math.max(0, db.busy - poolMax));
    this.gauge('palimpsest_operations_active', 'Operations holding a slot', () => load().active);
    this.gauge('palimpsest_operations_queued', 'Operations waiting for a slot', () => load().queued);
    this.gauge('palimpsest_sse_streams', 'Open event streams', () => load().streams);
  }

  private gauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  transactionDone(seconds: number): void {
    this.transactionDuration.observe(seconds);
  }

  httpDone(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpDuration.observe({ method, route }, seconds);
  }

  operationDone(operation: OperationName, result: Record<string, unknown> | null, seconds: number): void {
    const status = result ? String(result.status) : 'error';
    this.operationDuration.observe({ operation, status }, seconds);
    if (!specOf(operation).readOnly) {
      this.submissions.inc({ operation, status, reason: result ? reasonOf(result) : 'thrown' });
    }
  }
}
