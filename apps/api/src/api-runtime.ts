import { type AppContext } from '@palimpsest/application/app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { ReadReplica } from '@palimpsest/application/read-models/read-replica';
import { AppendBatcher } from '@palimpsest/store/append-batcher';
import type { Db } from '@palimpsest/store/db';
import type { OpenedReplica } from '@palimpsest/store/open-db';
import type { Logger } from 'pino';
import { TokenVerifier } from './auth/token-verifier';
import type { ApiConfig } from './config/api-config';
import { EventHub } from './events/event-hub';
import { EventStreams } from './events/event-streams';
import { AdmissionLimiter } from './lifecycle/admission-limiter';
import { RequestTracker } from './lifecycle/request-tracker';
import { registerActivityMetrics } from './observability/activity-metrics';
import { ApiMetrics } from './observability/api-metrics';
import { InstrumentedDb } from './observability/instrumented-db';
import { registerProjectionMetrics } from './observability/projection-metrics';

/**
 * The gateway's composition root: the plain objects every controller, guard and filter shares, built
 * once from the store and the configuration and handed to Nest as one provider.
 */
export class ApiRuntime {
  readonly db: InstrumentedDb;
  readonly ctx: AppContext;
  readonly metrics: ApiMetrics;
  readonly limiter: AdmissionLimiter;
  readonly tracker: RequestTracker;
  readonly tokens: TokenVerifier;
  readonly hub: EventHub;
  readonly streams: EventStreams;

  constructor(
    store: Db,
    readonly config: ApiConfig,
    readonly logger: Logger,
    /** A streaming replica for the reads that tolerate staleness (PALIMPSEST_READ_REPLICA_URL), if any. */
    replica?: OpenedReplica,
  ) {
    this.db = new InstrumentedDb(store, (seconds) => this.metrics.transactionDone(seconds));
    this.metrics = new ApiMetrics(this.db, config.app.store.postgres.poolMax, () => ({ active: this.limiter.active, queued: this.limiter.queued, streams: this.streams.size }));
    registerProjectionMetrics(this.metrics.registry, this.db, config.projectionLagDegradedS);
    registerActivityMetrics(this.metrics.registry, this.db);
    this.ctx = appContext(this.db, { appends: new AppendBatcher(this.db, { observer: this.metrics.commits }), ...(replica ? { replica: new ReadReplica(replica.db, replica.unreachable !== null) } : {}) }, config.app);
    this.limiter = new AdmissionLimiter(config, () => this.metrics.saturated.inc());
    this.hub = new EventHub(this.db);
    this.streams = new EventStreams(this.db, this.hub, { heartbeatMs: config.sseHeartbeatMs, maxStreams: config.sseMaxStreams }, (e) =>
      this.reportError(e, 'event stream'),
    );
    this.tracker = new RequestTracker(this.metrics, logger);
    this.tokens = new TokenVerifier(this.db, config.tokenCacheMs, (e) => this.reportError(e, 'token last_used_at'));
  }

  /** Errors off the request path (event streams, token bookkeeping) and unexpected ones on it. */
  readonly reportError = (error: unknown, context: string, traceId?: string): void => {
    this.logger.error({ err: error, context, ...(traceId ? { trace_id: traceId } : {}) }, `${context} failed`);
  };
}
