import type { Db } from '@palimpsest/store/db';
import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import { leaderIdentity } from '@palimpsest/projections/async/consumer-leases';
import { consumerStatuses, type ConsumerRef } from '@palimpsest/projections/async/consumer-status.queries';
import { ASYNC_PROJECTIONS } from '@palimpsest/projections/async/registry';

/** A lag (seconds) above which /health reports degraded, unless PALIMPSEST_PROJECTION_LAG_DEGRADED_S says otherwise. */
export const DEFAULT_LAG_DEGRADED_S = 30;

export interface ProjectorStatus {
  /** degraded: at least one consumer lags by more than the threshold (the store still serves). */
  status: 'ok' | 'degraded';
  lag_threshold_seconds: number;
  consumers: ConsumerStatus[];
  /** Names of the consumers over the threshold. */
  lagging: string[];
}

/** The threshold from the environment: a positive number of seconds, else the default. */
export function lagThresholdFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.PALIMPSEST_PROJECTION_LAG_DEGRADED_S;
  if (raw === undefined || raw === '') return DEFAULT_LAG_DEGRADED_S;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new RangeError(`PALIMPSEST_PROJECTION_LAG_DEGRADED_S must be a positive number of seconds, got ${JSON.stringify(raw)}`);
  }
  return seconds;
}

/** Every asynchronous projection (and any other consumer that has led, such as the relay): checkpoint, lag, state, leader. */
export async function projectorStatus(db: Db, thresholdSeconds: number): Promise<ProjectorStatus> {
  const refs = ASYNC_PROJECTIONS.map((p) => ({ name: p.name, kind: 'projection' as const }));
  const consumers = await consumerStatuses(db, db.kind, refs, leaderIdentity());
  const lagging = consumers.filter((c) => c.lag_seconds > thresholdSeconds).map((c) => c.name);
  return { status: lagging.length ? 'degraded' : 'ok', lag_threshold_seconds: thresholdSeconds, consumers, lagging };
}

/** One consumer's status (a runner's own, whether or not it is registered). */
export async function consumerStatusOf(db: Db, consumer: ConsumerRef, self = leaderIdentity()): Promise<ConsumerStatus> {
  const [status] = await consumerStatuses(db, db.kind, [consumer], self);
  return status!;
}
