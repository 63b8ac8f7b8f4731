import { embeddedDataDirOf, type Env } from '@palimpsest/store/store-config';
import { DEFAULT_AUDIT_POLICY, type AuditLogPolicy } from './audit-log.reactor';

/**
 * The Merkle log's settings, read once at start. On when PALIMPSEST_AUDIT_KEY names the signing key's
 * file, or PALIMPSEST_AUDIT=on keeps it beside the embedded data directory (`<data dir>.audit-key.pem`,
 * under `.palimpsest/` by default, which no tool reaches). PALIMPSEST_AUDIT_CHECKPOINT_EVENTS (1000) and
 * PALIMPSEST_AUDIT_CHECKPOINT_SECONDS (10) say how often a checkpoint is signed.
 */
export interface AuditConfig {
  keyFile: string;
  policy: AuditLogPolicy;
}

export function auditConfigFrom(env: Env, cwd: string): AuditConfig | null {
  const keyFile = env.PALIMPSEST_AUDIT_KEY || ((env.PALIMPSEST_AUDIT ?? '').toLowerCase() === 'on' ? `${embeddedDataDirOf(env, cwd)}.audit-key.pem` : null);
  if (!keyFile) return null;
  return {
    keyFile,
    policy: {
      everyEvents: positive(env, 'PALIMPSEST_AUDIT_CHECKPOINT_EVENTS', DEFAULT_AUDIT_POLICY.everyEvents),
      everySeconds: positive(env, 'PALIMPSEST_AUDIT_CHECKPOINT_SECONDS', DEFAULT_AUDIT_POLICY.everySeconds),
    },
  };
}

function positive(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}
