/**
 * How long the PostgreSQL adapter waits for anything, read once from the environment. Every bound is
 * finite: a database that stops answering (a blackhole, a stalled failover) fails the statements in
 * flight within `queryTimeoutMs` instead of hanging the callers, and a session that lost its client in
 * the middle of a transaction gives its row locks back within `idleInTransactionTimeoutMs`.
 */
export interface PostgresTimeouts {
  /** Waiting for a pooled or a new connection (PALIMPSEST_PG_CONNECT_TIMEOUT_MS, default 5 s). */
  connectTimeoutMs: number;
  /** The server cancels a statement running longer (statement_timeout; PALIMPSEST_PG_STATEMENT_TIMEOUT_MS, default 10 s). */
  statementTimeoutMs: number;
  /**
   * The client gives up on a statement the server has not answered (pg's query_timeout;
   * PALIMPSEST_PG_QUERY_TIMEOUT_MS, default statement timeout + 5 s): the connection is then discarded,
   * because the statement's outcome is unknown.
   */
  queryTimeoutMs: number;
  /** The server ends a session idle inside a transaction (PALIMPSEST_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS, default 30 s). */
  idleInTransactionTimeoutMs: number;
  /** TCP keepalive starts probing an idle connection after this long (PALIMPSEST_PG_KEEPALIVE_MS, default 10 s). */
  keepAliveMs: number;
}

const DEFAULT_POOL_MAX = 10;

export function poolMaxFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  return positiveInt(env, 'PALIMPSEST_PG_POOL_MAX', DEFAULT_POOL_MAX);
}

export function timeoutsFromEnv(env: Readonly<Record<string, string | undefined>>): PostgresTimeouts {
  const statementTimeoutMs = positiveInt(env, 'PALIMPSEST_PG_STATEMENT_TIMEOUT_MS', 10_000);
  const timeouts = {
    connectTimeoutMs: positiveInt(env, 'PALIMPSEST_PG_CONNECT_TIMEOUT_MS', 5_000),
    statementTimeoutMs,
    queryTimeoutMs: positiveInt(env, 'PALIMPSEST_PG_QUERY_TIMEOUT_MS', statementTimeoutMs + 5_000),
    idleInTransactionTimeoutMs: positiveInt(env, 'PALIMPSEST_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS', 30_000),
    keepAliveMs: positiveInt(env, 'PALIMPSEST_PG_KEEPALIVE_MS', 10_000),
  };
  if (timeouts.queryTimeoutMs <= statementTimeoutMs) {
    // The server must get to cancel first: a cancelled statement leaves a reusable connection and a
    // known outcome (nothing committed), a client-side timeout neither.
    throw new RangeError(
      `PALIMPSEST_PG_QUERY_TIMEOUT_MS (${timeouts.queryTimeoutMs}) must be greater than PALIMPSEST_PG_STATEMENT_TIMEOUT_MS (${statementTimeoutMs})`,
    );
  }
  return timeouts;
}

function positiveInt(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}
