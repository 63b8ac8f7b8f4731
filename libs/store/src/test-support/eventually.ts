/**
 * Polls `read` until `done` accepts its result. For PostgreSQL tests whose outcome depends on
 * other sessions of the same server (readAll waits for the cluster-wide xmin to pass).
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) return value; // let the caller's expectation report the mismatch
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A promise with its resolve handle, for holding a transaction open from the outside. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * On PostgreSQL, the write transaction that holds the cluster-wide xmin back (the one readAll waits on),
 * described for a failure message; '' when none does, or on PGlite.
 */
export async function xminHolder(db: { kind: string; query: <R>(sql: string) => Promise<{ rows: R[] }> }): Promise<string> {
  if (db.kind !== 'postgres') return '';
  const { rows } = await db.query<{ who: string }>(
    `SELECT format('pid %s on %s (%s since %s): %s', pid, datname, state, xact_start, left(query, 200)) AS who
     FROM pg_stat_activity WHERE backend_xid IS NOT NULL ORDER BY age(backend_xid) DESC LIMIT 1`,
  );
  return rows[0]?.who ?? '';
}
