import { auditConfigFrom, type AuditConfig } from '@palimpsest/projections/audit/audit-config';
import { relayConfigFrom, type RelayConfig } from './relay/relay-config';

/** The projector's configuration, read once by the composition root (the process's entry) from its environment. */
export interface ProjectorConfig {
  /** `PALIMPSEST_PROJECTOR=off` keeps a gateway (or `palimpsest mcp`) from running the projector in-process. */
  enabled: boolean;
  /** PALIMPSEST_PROJECTOR_BATCH_SIZE (projectorBatchSize). */
  batchSize: number;
  /** PALIMPSEST_PROJECTOR_LEASE_S (projectorLeasePeriodMs): a shard lease's period on PostgreSQL. */
  leasePeriodMs: number;
  /** The NATS relay (PALIMPSEST_NATS_*, docs/relay.md), null when PALIMPSEST_NATS_URL is unset: the relay is off. */
  relay: RelayConfig | null;
  /** The Merkle log's reactor (PALIMPSEST_AUDIT_*, audit-config.ts), null when off. */
  audit: AuditConfig | null;
}

const DEFAULT_BATCH_SIZE = 500;
const DEFAULT_LEASE_PERIOD_MS = 10_000;

/** Throws on a malformed value (RangeError, RelayConfigError), so a process refuses to start rather than run misconfigured. */
export function projectorConfigFrom(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): ProjectorConfig {
  // Off, the rest is not read: a malformed setting of a projector that does not run stops nothing.
  if (!projectorEnabled(env)) return { enabled: false, batchSize: DEFAULT_BATCH_SIZE, leasePeriodMs: DEFAULT_LEASE_PERIOD_MS, relay: null, audit: null };
  return {
    enabled: true,
    batchSize: projectorBatchSize(env),
    leasePeriodMs: projectorLeasePeriodMs(env),
    relay: relayConfigFrom(env),
    audit: auditConfigFrom(env, cwd),
  };
}

export function projectorEnabled(env: NodeJS.ProcessEnv): boolean {
  return (env.PALIMPSEST_PROJECTOR ?? '').toLowerCase() !== 'off';
}

/**
 * Events per batch (one transaction each), PALIMPSEST_PROJECTOR_BATCH_SIZE, default 500: larger batches
 * catch up faster (a read model such as search amortizes its work per touched target over a batch),
 * smaller ones commit sooner and lose less work to a crash.
 */
export function projectorBatchSize(env: NodeJS.ProcessEnv): number {
  const raw = env.PALIMPSEST_PROJECTOR_BATCH_SIZE;
  if (raw === undefined || raw === '') return DEFAULT_BATCH_SIZE;
  const size = Number(raw);
  if (!Number.isSafeInteger(size) || size < 1 || size > 10_000) {
    throw new RangeError(`PALIMPSEST_PROJECTOR_BATCH_SIZE must be an integer from 1 to 10000, got ${JSON.stringify(raw)}`);
  }
  return size;
}

/**
 * A shard lease's period on PostgreSQL, PALIMPSEST_PROJECTOR_LEASE_S (seconds, 1–600, default 10;
 * docs/projector.md "Shards and leases"): a hung or cut-off projector loses its shards after it (a killed
 * one at once); shorter moves them sooner, at the cost of a renewal every third of it.
 */
export function projectorLeasePeriodMs(env: NodeJS.ProcessEnv): number {
  const raw = env.PALIMPSEST_PROJECTOR_LEASE_S;
  if (raw === undefined || raw === '') return DEFAULT_LEASE_PERIOD_MS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 600) {
    throw new RangeError(`PALIMPSEST_PROJECTOR_LEASE_S must be a number of seconds from 1 to 600, got ${JSON.stringify(raw)}`);
  }
  return Math.round(seconds * 1000);
}
