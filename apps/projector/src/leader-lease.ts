import { randomUUID } from 'node:crypto';
import type { Db, DbSession } from '@palimpsest/store/db';
import { acquireShards, fairShare, registerMember, releaseShard, renewMember, retireMember, type HeldShard } from '@palimpsest/projections/async/shard-leases';

/**
 * The right to apply one shard (a processor), held by one consumer instance at a time across processes.
 * `token` is the fencing token its checkpoint updates carry (null on the embedded store: one process).
 */
export interface ShardLease {
  readonly shard: string;
  readonly token: string | null;
  /** The member session's backend (PostgreSQL), recorded in consumer_leases. */
  readonly backendPid: number | null;
}

/**
 * A log consumer's leases (docs/projector.md, "Shards and leases"). `share` is how many of its shards it
 * may lead now; `acquire` takes free ones; `holds` is false once a lease was found taken over (the
 * renewal saw it gone): the slot stops leading at its next step.
 */
export interface ShardLeases {
  start(): Promise<void>;
  /** Gives up every lease and forgets the member. */
  stop(): Promise<void>;
  share(): Promise<number>;
  acquire(shards: readonly string[], limit: number): Promise<ShardLease[]>;
  release(lease: ShardLease): Promise<void>;
  holds(lease: ShardLease): boolean;
}

export interface ShardLeaseOptions {
  identity: string;
  leasePeriodMs: number;
  onError(error: unknown, processor: string): void;
}

export function shardLeases(db: Db, shards: readonly string[], opts: ShardLeaseOptions): ShardLeases {
  return db.kind === 'pglite' ? new EmbeddedLeases() : new PostgresLeases(db, shards, opts);
}

/** Leases of this process on the embedded store, whose one process is the owner and so leads everything. */
const heldHere = new Set<string>();

/** The embedded store: one process, no tokens; within it, one consumer instance per shard. */
class EmbeddedLeases implements ShardLeases {
  private readonly mine = new Set<string>();

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    for (const shard of this.mine) heldHere.delete(shard);
    this.mine.clear();
  }

  async share(): Promise<number> {
    return Number.MAX_SAFE_INTEGER;
  }

  async acquire(shards: readonly string[]): Promise<ShardLease[]> {
    const taken = shards.filter((shard) => !heldHere.has(shard));
    for (const shard of taken) {
      heldHere.add(shard);
      this.mine.add(shard);
    }
    return taken.map((shard) => ({ shard, token: null, backendPid: null }));
  }

  async release(lease: ShardLease): Promise<void> {
    if (this.mine.delete(lease.shard)) heldHere.delete(lease.shard);
  }

  holds(lease: ShardLease): boolean {
    return this.mine.has(lease.shard);
  }
}

/**
 * PostgreSQL: the consumer is a member (projector_members) on a session it holds for its life (its
 * backend is the proof it is up), renewed with its leases every third of the lease period; a lease it
 * held that the renewal does not find again was taken over. A broken session, a failed renewal (the
 * store closing, the server gone) or a member row gone loses every lease here at once and gives the
 * session back: others may take them, and it registers again on its next balance.
 */
class PostgresLeases implements ShardLeases {
  private readonly member: string;
  private session: DbSession | null = null;
  private backendPid: number | null = null;
  private readonly held = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly shards: readonly string[],
    private readonly opts: ShardLeaseOptions,
  ) {
    this.member = `${opts.identity}/${randomUUID()}`;
  }

  async start(): Promise<void> {
    await this.register();
    this.timer = setInterval(() => void (this.renewing ??= this.renew().finally(() => (this.renewing = null))), Math.max(10, Math.floor(this.opts.leasePeriodMs / 3)));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.renewing;
    this.held.clear();
    try {
      await retireMember(this.db, this.member);
    } catch (error) {
      this.opts.onError(error, 'shard leases');
    } finally {
      await this.dropSession();
    }
  }

  async share(): Promise<number> {
    if (!this.session) await this.register();
    return fairShare(this.db, this.shards);
  }

  async acquire(shards: readonly string[], limit: number): Promise<ShardLease[]> {
    if (!this.session) await this.register();
    const taken = await acquireShards(this.db, this.member, this.opts.identity, shards, limit, this.opts.leasePeriodMs);
    for (const { shard, token } of taken) this.held.set(shard, token);
    return taken.map(({ shard, token }) => ({ shard, token, backendPid: this.backendPid }));
  }

  async release(lease: ShardLease): Promise<void> {
    if (this.held.get(lease.shard) === lease.token) this.held.delete(lease.shard);
    if (lease.token !== null) await releaseShard(this.db, { shard: lease.shard, token: lease.token });
  }

  holds(lease: ShardLease): boolean {
    return this.held.get(lease.shard) === lease.token;
  }

  private async register(): Promise<void> {
    await this.dropSession();
    const session = await this.db.session();
    try {
      this.backendPid = await registerMember(session, this.member, this.opts.identity, this.shards, this.opts.leasePeriodMs);
      this.session = session;
    } catch (error) {
      await session.release();
      throw error;
    }
  }

  private async renew(): Promise<void> {
    const session = this.session;
    if (!session || this.backendPid === null) return;
    const before = new Map(this.held); // committed before the renewal reads: an acquire during it is not judged by it
    let still: HeldShard[] | null = null;
    try {
      await session.query('SELECT 1'); // the backend others see is still this member's
      still = await renewMember(this.db, this.member, this.opts.leasePeriodMs, this.backendPid);
    } catch (error) {
      this.opts.onError(error, 'shard leases');
    }
    if (still === null) {
      // Not renewed: others may take these leases now; stop leading them and register again.
      this.held.clear();
      if (this.session === session) await this.dropSession();
      return;
    }
    const renewed = new Map(still.map(({ shard, token }) => [shard, token]));
    for (const [shard, token] of before) if (renewed.get(shard) !== token && this.held.get(shard) === token) this.held.delete(shard);
  }

  private async dropSession(): Promise<void> {
    const session = this.session;
    this.session = null;
    await session?.release().catch(() => undefined);
  }
}
