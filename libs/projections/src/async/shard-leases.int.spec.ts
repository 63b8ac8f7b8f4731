import type { Db, DbSession, Sql } from '@palimpsest/store/db';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { advanceFencedCheckpoint, loadCheckpoint } from './projection-checkpoints';
import { acquireShards, fairShare, registerMember, releaseShard, renewMember, retireMember } from './shard-leases';

const LONG = 60_000;
const to = (position: number) => ({ xid: '1', position });

/** A batch as the projector commits one: a write, then the fenced checkpoint update, rolled back unless advanced. */
async function batch(db: Db, shard: string, token: string, position: number): Promise<string> {
  let outcome = '';
  await db
    .transaction(async (tx: Sql) => {
      await tx.query(`INSERT INTO fenced_writes (shard, position) VALUES ($1, $2)`, [shard, position]);
      const from = await loadCheckpoint(tx, shard);
      outcome = await advanceFencedCheckpoint(tx, shard, from, to(position), 1, token);
      if (outcome !== 'advanced') throw new Error(outcome);
    })
    .catch(() => undefined);
  return outcome;
}

const writes = async (db: Db, shard: string) =>
  (await db.query<{ position: string }>(`SELECT position FROM fenced_writes WHERE shard = $1 ORDER BY position`, [shard])).rows.map((r) => Number(r.position));

describe(`shard leases and the fenced checkpoint (${describeBackend})`, () => {
  let store: TestDb;
  const sessions: DbSession[] = [];
  const member = async (name: string, shards: string[], periodMs = LONG) => {
    const session = await store.db.session();
    sessions.push(session);
    await registerMember(session, name, `host:${name}`, shards, periodMs);
    return session;
  };

  beforeAll(async () => {
    store = await createTestDb();
    await store.db.query(`CREATE TABLE fenced_writes (shard text NOT NULL, position bigint NOT NULL)`);
  });
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.release(); // back to a small pool
  });
  afterAll(() => store.dispose());

  it('a holder whose lease expired and was taken over cannot move the checkpoint: its batch rolls back', async () => {
    const { db } = store;
    const shard = 'fence-expired';
    const x = await member('x-expired', [shard], 200);
    const [held] = await acquireShards(db, 'x-expired', 'host:x', [shard], 1, 200);
    expect(held).toEqual({ shard, token: '1' });
    expect(await batch(db, shard, held!.token, 1)).toBe('advanced');

    await member('y-expired', [shard]);
    // x stops renewing: after its lease period the shard is free, and the takeover is a new token.
    const [taken] = await eventually(() => acquireShards(db, 'y-expired', 'host:y', [shard], 1, LONG), (t) => t.length === 1, { timeoutMs: 5_000 });
    expect(taken).toEqual({ shard, token: '2' });
    const { rows } = await x.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(await renewMember(db, 'x-expired', 200, rows[0]!.pid)).toEqual([]); // x learns it holds nothing

    expect(await batch(db, shard, held!.token, 2)).toBe('fenced');
    expect(await writes(db, shard)).toEqual([1]); // the stale batch's write rolled back with it
    expect((await loadCheckpoint(db, shard)).position).toBe(1);
    expect(await batch(db, shard, taken!.token, 3)).toBe('advanced');
    expect(await writes(db, shard)).toEqual([1, 3]);
  });

  it('shares the shards fairly among the live members, and frees a released or retired member’s leases at once', async () => {
    const { db } = store;
    const shards = Array.from({ length: 8 }, (_, i) => `fair-${i}`);
    await member('f1', shards);
    expect(await fairShare(db, shards)).toBe(8);
    await member('f2', shards);
    expect(await fairShare(db, shards)).toBe(4);
    await member('f3', shards);
    expect(await fairShare(db, shards)).toBe(3);
    await member('f4', shards.slice(0, 2)); // runs two of them: the others' share of those two shrinks
    expect(await fairShare(db, shards)).toBe(3); // 2/4 + 6/3 = 2.5
    expect(await fairShare(db, shards.slice(0, 2))).toBe(1);

    const first = await acquireShards(db, 'f1', 'host:f1', shards, 3, LONG);
    expect(first.map((l) => l.shard).sort()).toEqual(shards.slice(0, 3));
    const second = await acquireShards(db, 'f2', 'host:f2', shards, 3, LONG);
    expect(second.map((l) => l.shard).sort()).toEqual(shards.slice(3, 6)); // not the held ones
    await releaseShard(db, first[0]!);
    expect((await acquireShards(db, 'f3', 'host:f3', shards, 3, LONG)).map((l) => [l.shard, l.token]).sort()).toEqual([
      [shards[0], '2'],
      [shards[6], '1'],
      [shards[7], '1'],
    ]);
    await retireMember(db, 'f2');
    expect(await fairShare(db, shards)).toBe(4); // 2/3 + 6/2
    expect((await acquireShards(db, 'f1', 'host:f1', shards, 8, LONG)).map((l) => [l.shard, l.token]).sort()).toEqual(second.map((l) => [l.shard, '2']).sort());
  });

  if (describeBackend === 'postgres') {
    // PGlite has one connection: a transaction held open there would hold every other statement too.
    it('a takeover skips a lease whose holder is committing a batch, and a committed batch is seen by the next holder', async () => {
      const { db } = store;
      const shard = 'fence-committing';
      await member('x-commit', [shard], 300);
      const [held] = await acquireShards(db, 'x-commit', 'host:x', [shard], 1, 300);
      await member('y-commit', [shard]);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const committing = db.transaction(async (tx) => {
        const from = await loadCheckpoint(tx, shard);
        const outcome = await advanceFencedCheckpoint(tx, shard, from, to(7), 1, held!.token);
        locked();
        await gate; // the lease row stays locked FOR SHARE until this transaction ends
        return outcome;
      });
      await isLocked;
      const expired = async () => (await db.query<{ expired: boolean }>(`SELECT expires_at <= now() AS expired FROM projector_shard_leases WHERE shard = $1`, [shard])).rows[0]!.expired;
      expect(await eventually(expired, Boolean, { timeoutMs: 5_000 })).toBe(true); // x's lease expired, its batch not yet committed
      expect(await acquireShards(db, 'y-commit', 'host:y', [shard], 1, LONG)).toEqual([]); // skipped, not waited on
      release();
      expect(await committing).toBe('advanced');
      const [taken] = await acquireShards(db, 'y-commit', 'host:y', [shard], 1, LONG);
      expect(taken?.token).toBe('2');
      expect((await loadCheckpoint(db, shard)).position).toBe(7);
    });

    it('frees the leases of a member whose session ended at once, before they expire', async () => {
      const { db } = store;
      const shard = 'fence-dead';
      const x = await member('x-dead', [shard]);
      const [held] = await acquireShards(db, 'x-dead', 'host:x', [shard], 1, LONG);
      await member('y-dead', [shard]);
      expect(await acquireShards(db, 'y-dead', 'host:y', [shard], 1, LONG)).toEqual([]); // x is live
      expect(await fairShare(db, [shard])).toBe(1);
      const { rows } = await x.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await db.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]); // as a SIGKILLed holder's socket closing
      const [taken] = await eventually(() => acquireShards(db, 'y-dead', 'host:y', [shard], 1, LONG), (t) => t.length === 1, { timeoutMs: 5_000 });
      expect(taken).toEqual({ shard, token: String(Number(held!.token) + 1) });
      expect(await batch(db, shard, held!.token, 1)).toBe('fenced');
    });
  }
});
