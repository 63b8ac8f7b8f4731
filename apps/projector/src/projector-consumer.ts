import type { AsyncProjection } from '@palimpsest/projections/async/async-projection.port';
import { ASYNC_PROJECTIONS } from '@palimpsest/projections/async/registry';
import type { Db } from '@palimpsest/store/db';
import { auditLogProcessor, type AuditLogPolicy } from '@palimpsest/projections/audit/audit-log.reactor';
import type { AuditSigner } from '@palimpsest/projections/audit/audit-signer';
import type { ConsumerOptions } from './consumer-options';
import { LogConsumer } from './log-consumer';
import type { LogProcessor } from './log-processor';
import { projectionProcessor } from './projection-processor';

export interface ProjectorOptions {
  /** Default: every registered asynchronous projection (ASYNC_PROJECTIONS). */
  projections?: readonly AsyncProjection[];
  /** Other processors run beside the projections (the NATS relay). */
  processors?: readonly LogProcessor[];
  runner?: Partial<ConsumerOptions>;
  /** The Merkle log's reactor (audit-log.reactor.ts), with the key that signs its checkpoints. */
  audit?: { signer: AuditSigner; policy: AuditLogPolicy };
  /** Processors built on the consumer's store (the git reactor), run after the others. */
  reactors?: readonly ((db: Db) => LogProcessor)[];
}

/** The projector's one log consumer: a processor per projection, then the given processors. */
export function projectorConsumer(db: Db, opts: ProjectorOptions = {}): LogConsumer {
  const projections = (opts.projections ?? ASYNC_PROJECTIONS).map((p) => projectionProcessor(db, p));
  const audit: LogProcessor[] = opts.audit ? [auditLogProcessor(db, opts.audit.signer, opts.audit.policy)] : [];
  const reactors = (opts.reactors ?? []).map((reactor) => reactor(db));
  return new LogConsumer(db, [...projections, ...audit, ...(opts.processors ?? []), ...reactors], opts.runner);
}
