import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { createTestDb, databaseUrlOf, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { spawnRecordingProjector, type ProjectorProcess } from './test-support/projector-process';
import { auditRecording, createRecordingTable } from './test-support/recording.projection';
import { startWriters } from './test-support/writers';

const NAME = 'test-shard';
const TABLE = 'recorded_shard';
const SHARDS = 8;
/** The lease period of the processes under test: a killed process's shards must move within it. */
const LEASE_MS = 3_000;
const CLEAN = { skipped: [], duplicated: [], outOfOrder: [] };
const shardNames = Array.from({ length: SHARDS }, (_, i) => `${NAME}-${i}`);

interface LeaseRow {
  shard: string;
  holder: string | null;
  token: number;
  live: boolean;
}

/** The shard leases as the database has them; `live`: unexpired and its member's backend connected. */
async function leases(db: Db): Promise<LeaseRow[]> {
  const { rows } = await db.query<{ shard: string; holder: string | null; token: string; live: boolean }>(
    `SELECT s.shard, s.holder, s.token::text AS token,
            s.expires_at > now() AND EXISTS (
              SELECT 1 FROM projector_members m JOIN pg_stat_activity a ON a.pid = m.backend_pid AND a.backend_start = m.backend_start
               WHERE m.member = s.member AND m.expires_at > now()) AS live
       FROM projector_shard_leases s WHERE s.shard = ANY($1::text[]) ORDER BY s.shard`,
    [shardNames],
  );
  return rows.map((r) => ({ ...r, token: Number(r.token) }));
}

/** How many shards each process leads (live leases only). */
const ledBy = (rows: LeaseRow[], p: ProjectorProcess) => rows.filter((r) => r.live && r.holder === p.identity).length;

/**
 * Real projector processes sharing 8 shards (8 instances of the recording projection) on PostgreSQL:
 * they spread, a SIGKILLed one's shards move to the survivor within the lease period under write load,
 * and a process stopped mid-batch (SIGSTOP, between its writes and its checkpoint update) whose leases
 * were taken over meanwhile is fenced when it resumes: its batch rolls back. Every event is recorded
 * exactly once per shard. On the embedded store one process leads every shard (it owns the store).
 */
describe(`projector shards across processes (${describeBackend})`, () => {
  let testDb: TestDb | undefined;
  let dir: string | undefined;
  let storeEnv: NodeJS.ProcessEnv;
  const running: ProjectorProcess[] = [];

  beforeAll(async () => {
    if (describeBackend === 'postgres') {
      testDb = await createTestDb();
      for (let i = 0; i < SHARDS; i += 1) await createRecordingTable(testDb.db, `${TABLE}_${i}`);
      storeEnv = { DATABASE_URL: await databaseUrlOf(testDb.db) };
    } else {
      dir = mkdtempSync(join(tmpdir(), 'palimpsest-shards-'));
      storeEnv = { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(dir, 'data') };
    }
  });

  afterAll(async () => {
    for (const p of running) {
      p.kill('SIGCONT');
      p.kill('SIGKILL');
    }
    await Promise.all(running.map((p) => p.exited));
    await testDb?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const spawn = (opts: { stopAt?: number; exitWhenCaughtUp?: boolean } = {}) => {
    const p = spawnRecordingProjector(storeEnv, { name: NAME, table: TABLE, batch: 20, shards: SHARDS, leaseMs: LEASE_MS, ...opts });
    running.push(p);
    return p;
  };

  const audits = (db: Db) => Promise.all(shardNames.map((_, i) => auditRecording(db, `${TABLE}_${i}`)));

  if (describeBackend === 'postgres') {
    it('spreads 8 shards over two processes, moves a SIGKILLed one’s within the lease period, and fences a stale one', async () => {
      const db = testDb!.db;
      const a = spawn();
      await a.ready;
      expect(ledBy(await eventually(() => leases(db), (rows) => ledBy(rows, a) === SHARDS), a)).toBe(SHARDS); // alone, it leads all
      const b = spawn();
      await b.ready;
      const spread = await eventually(() => leases(db), (rows) => ledBy(rows, a) === SHARDS / 2 && ledBy(rows, b) === SHARDS / 2);
      expect([ledBy(spread, a), ledBy(spread, b)]).toEqual([SHARDS / 2, SHARDS / 2]);

      const writers = startWriters(db, appendToStream);
      // Both process under load: every shard has moved its checkpoint past a first batch.
      const moving = await eventually(
        () => db.query<{ n: string }>(`SELECT count(*) AS n FROM projection_checkpoints WHERE projection = ANY($1::text[]) AND last_position > 0`, [shardNames]),
        (r) => Number(r.rows[0]!.n) === SHARDS,
      );
      expect(Number(moving.rows[0]!.n)).toBe(SHARDS);

      const before = await leases(db);
      const ofA = before.filter((r) => r.holder === a.identity);
      a.kill('SIGKILL');
      const killedAt = performance.now();
      expect((await a.exited).signal).toBe('SIGKILL');
      const moved = await eventually(() => leases(db), (rows) => ledBy(rows, b) === SHARDS, { timeoutMs: 2 * LEASE_MS });
      const takeoverMs = performance.now() - killedAt;
      expect(ledBy(moved, b)).toBe(SHARDS);
      expect(takeoverMs).toBeLessThan(LEASE_MS);
      for (const lease of ofA) expect(moved.find((r) => r.shard === lease.shard)!.token).toBeGreaterThan(lease.token); // a takeover is a new token
      process.stdout.write(`shard takeover after SIGKILL: ${Math.round(takeoverMs)} ms (lease period ${LEASE_MS} ms)\n`);

      // A third process joins, takes its share, and stops itself in its first batch before the checkpoint update.
      const c = spawn({ stopAt: 1 });
      await c.ready;
      const stoppedIn = await eventually(async () => /stopped (\S+)\n/.exec(c.stdout())?.[1], (shard) => shard !== undefined, { timeoutMs: 15_000 });
      expect(before.map((r) => r.shard)).toContain(stoppedIn); // one of the shards, named by the process that stopped in it
      const heldByC = (await leases(db)).find((r) => r.shard === stoppedIn)!;
      expect(heldByC.holder).toBe(c.identity);
      // Hung, it renews nothing: within a lease period its shards are the survivor's, with a new token.
      const hungAt = performance.now();
      const retaken = await eventually(() => leases(db), (rows) => ledBy(rows, b) === SHARDS, { timeoutMs: 3 * LEASE_MS });
      expect(ledBy(retaken, b)).toBe(SHARDS);
      expect(performance.now() - hungAt).toBeLessThan(LEASE_MS + 2_000);
      expect(retaken.find((r) => r.shard === stoppedIn)!.token).toBeGreaterThan(heldByC.token);

      c.kill('SIGCONT'); // the stale process resumes with its batch applied: its checkpoint update must be refused
      const fenced = await eventually(async () => c.stderr(), (err) => err.includes(`${stoppedIn}: fenced`), { timeoutMs: 10_000 });
      expect(fenced).toContain(`${stoppedIn}: fenced (lease token ${heldByC.token} was taken over)`);

      const appended = await writers.stop();
      expect(appended).toBeGreaterThan(0);
      const done = await eventually(() => audits(db), (all) => all.every((x) => x.recorded >= x.events), { timeoutMs: 20_000 });
      for (const audit of done) {
        expect(audit).toMatchObject(CLEAN);
        expect(audit.recorded).toBe(audit.events);
        expect(audit.events).toBeGreaterThanOrEqual(appended);
      }
      // The two live processes share the shards again.
      const shared = await eventually(() => leases(db), (rows) => ledBy(rows, b) === SHARDS / 2 && ledBy(rows, c) === SHARDS / 2);
      expect([ledBy(shared, b), ledBy(shared, c)]).toEqual([SHARDS / 2, SHARDS / 2]);

      for (const p of [b, c]) p.kill('SIGTERM');
      for (const p of [b, c]) expect(await p.exited).toMatchObject({ code: 0 });
      expect((await leases(db)).filter((r) => r.holder !== null)).toEqual([]); // a clean stop releases its leases
    }, 60_000);
  } else {
    it('leads every shard in the one process that owns the embedded store', async () => {
      const db = await openDb({ dataDir: storeEnv.PALIMPSEST_DATA_DIR! });
      try {
        await migrate(db);
        for (let i = 0; i < SHARDS; i += 1) await createRecordingTable(db, `${TABLE}_${i}`);
        for (let s = 0; s < 10; s += 1) await appendToStream(db, uniqueStreamId(`shard-${s}`), 0, sampleEvents(12));
      } finally {
        await db.close();
      }
      const only = spawn({ exitWhenCaughtUp: true });
      expect(await only.exited).toMatchObject({ code: 0 });
      const after = await openDb({ dataDir: storeEnv.PALIMPSEST_DATA_DIR! });
      try {
        for (const audit of await audits(after)) expect(audit).toMatchObject({ ...CLEAN, events: 120, recorded: 120 });
        const { rows } = await after.query(`SELECT 1 FROM projector_shard_leases`);
        expect(rows).toEqual([]); // no lease table in use: the owner leads
      } finally {
        await after.close();
      }
    }, 60_000);
  }
});
