import pg from 'pg';

/**
 * A client taken out of the pool for one statement or one transaction.
 *
 * pg-pool removes its idle 'error' listener while a client is checked out, so a connection that dies
 * then (the server restarts, pg_terminate_backend, a network cut) would emit an unhandled 'error' and
 * end the process. The checkout listens for the whole time it holds the client: the statement in
 * flight is rejected by pg itself, and the broken client is destroyed on release instead of pooled.
 *
 * A statement the server refused does not break the connection, so the client goes back to the pool.
 * It goes back only after the server has ended that statement's implicit transaction: pg rejects a
 * query as soon as the ErrorResponse arrives, while the backend gives up the statement's row locks
 * just after sending it, before ReadyForQuery. A caller that retried at once on another connection
 * (a NOWAIT guard) could otherwise find its own aborted statement's lock still held.
 */
export class Checkout {
  private lost: Error | undefined;
  private readonly onError = (error: Error): void => {
    this.lost ??= error;
  };

  private constructor(
    readonly client: pg.PoolClient,
    private readonly settleMs: number,
  ) {
    client.on('error', this.onError);
  }

  static async take(pool: pg.Pool, settleMs: number): Promise<Checkout> {
    return new Checkout(await pool.connect(), settleMs);
  }

  /** The connection failed while checked out (its 'error' event). */
  get broken(): Error | undefined {
    return this.lost;
  }

  /**
   * Back to the pool, or destroyed when the connection failed or `failure` leaves it in an unknown
   * state (anything but an ERROR-severity answer from the server, e.g. a client-side query timeout).
   */
  async release(failure?: unknown): Promise<void> {
    let destroy: Error | undefined = this.lost ?? (failure !== undefined && !refusedByServer(failure) ? asError(failure) : undefined);
    if (!destroy && failure !== undefined && !(await untilReady(this.client, this.settleMs))) {
      destroy = new Error('the connection did not become ready after a refused statement');
    }
    destroy ??= this.lost;
    this.client.removeListener('error', this.onError);
    this.client.release(destroy ?? false);
  }
}

/** The server answered with an error that ends the statement, not the session. */
export function refusedByServer(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.severity !== 'FATAL' && error.severity !== 'PANIC';
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** Resolves true once the client has received ReadyForQuery (pg emits 'drain' then), false if it died or `ms` passed. */
function untilReady(client: pg.PoolClient, ms: number): Promise<boolean> {
  if ((client as unknown as { readyForQuery?: boolean }).readyForQuery === true) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.removeListener('drain', onDrain);
      client.removeListener('error', onFail);
      client.removeListener('end', onFail);
      resolve(ready);
    };
    const onDrain = () => done(true);
    const onFail = () => done(false);
    const timer = setTimeout(onFail, ms);
    client.on('drain', onDrain);
    client.on('error', onFail);
    client.on('end', onFail);
  });
}
