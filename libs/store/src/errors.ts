/** Errors the store throws on purpose. Everything else is a driver error, rethrown as is. */

/** Another writer appended to the stream first (or expectedVersion was not the stream's last version). */
export class StreamVersionConflictError extends Error {
  override readonly name = 'StreamVersionConflictError';
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    options?: { cause?: unknown },
  ) {
    super(`stream ${JSON.stringify(streamId)} is not at version ${expectedVersion}: another writer appended first`, options);
  }
}

/** An applied migration's file no longer matches what was applied (forward-only: add a new file instead). */
export class MigrationChecksumError extends Error {
  override readonly name = 'MigrationChecksumError';
  constructor(
    readonly migration: string,
    readonly appliedChecksum: string,
    readonly fileChecksum: string,
  ) {
    super(
      `migration ${migration} was changed after it was applied (checksum ${appliedChecksum} in schema_migrations, ` +
        `${fileChecksum} on disk); migrations are forward-only: restore the file and add a new migration`,
    );
  }
}

/** Another live process holds the PGlite data directory. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly lockPath: string,
  ) {
    super(`data directory is in use by pid ${pid} (${dataDir}; lock file ${lockPath})`);
  }
}

/**
 * What a driver error says about the database, for the gateways to answer alike:
 * - `transient`: the server answered but could not finish in time (lock not available, serialization
 *   failure, deadlock, statement timeout); nothing was committed, the same request may succeed now.
 * - `unreachable`: no answer, or the session was lost (refused or reset connection, terminated session,
 *   a connect or read timeout, a closed store). A statement in flight may have committed: only a
 *   resend with the same idempotency key can tell, so it is never reported as refused.
 * null: anything else (a defect, or an error that is not the database's).
 */
export type StoreFailure = { kind: 'transient' | 'unreachable'; reason: string };

const TRANSIENT_SQLSTATES: Readonly<Record<string, string>> = {
  '55P03': 'lock_timeout',
  '40001': 'serialization_failure',
  '40P01': 'deadlock',
  '57014': 'statement_timeout',
};
/** Connection exceptions (class 08), operator intervention (57P0x), idle-in-transaction timeout. */
const UNREACHABLE_SQLSTATES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '25P03', '53300']);
const UNREACHABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNREACHABLE_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable|the database was closed|Connection ended/i;

export function storeFailureOf(error: unknown): StoreFailure | null {
  const e = (error ?? {}) as { code?: unknown; message?: unknown };
  const code = String(e.code ?? '');
  const transient = TRANSIENT_SQLSTATES[code];
  if (transient) return { kind: 'transient', reason: transient };
  if (UNREACHABLE_SQLSTATES.has(code) || UNREACHABLE_SOCKET_CODES.has(code) || UNREACHABLE_MESSAGES.test(String(e.message ?? ''))) {
    return { kind: 'unreachable', reason: 'database_unavailable' };
  }
  return null;
}
