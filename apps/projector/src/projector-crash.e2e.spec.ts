import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consumerStatusOf } from '@palimpsest/application/queries/projector-status.handler';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { createTestDb, databaseUrlOf, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { spawnRecordingProjector, type ProjectorProcess } from './test-support/projector-process';
import { startWriters } from './test-support/writers';
import { auditRecording, createRecordingTable } from './test-support/recording.projection';

const NAME = 'test-crash';
const TABLE = 'recorded_crash';
/** Each kill costs a process start (seconds on a loaded machine; PGlite's open is the slower). */
const KILLS = describeBackend === 'postgres' ? 5 : 4;
const CLEAN = { skipped: [], duplicated: [], outOfOrder: [] };

/** Waits for the process to die at its crash point; SIGKILLs it from outside when it has not 3 s after it started. */
async function crashed(projector: ProjectorProcess): Promise<NodeJS.Signals | null> {
  let timer: NodeJS.Timeout | undefined;
  void projector.ready.then(() => (timer = setTimeout(() => projector.kill('SIGKILL'), 3_000)), () => undefined);
  const { signal } = await projector.exited;
  clearTimeout(timer);
  return signal;
}

/**
 * Real projector processes (the Nest microservice with the recording test projection), killed with
 * SIGKILL mid-batch: at the opt-in crash point between a batch's apply and its commit, many times.
 * On PostgreSQL writers keep committing meanwhile and a standby takes over from a killed leader; the
 * embedded store is one process's at a time, so there the log is written before the projectors run.
 */
describe(`projector processes killed mid-batch (${describeBackend})`, () => {
  let testDb: TestDb | undefined;
  let dir: string | undefined;
  let storeEnv: NodeJS.ProcessEnv;
  const running: ProjectorProcess[] = [];

  beforeAll(async () => {
    if (describeBackend === 'postgres') {
      testDb = await createTestDb();
      await createRecordingTable(testDb.db, TABLE);
      storeEnv = { DATABASE_URL: await databaseUrlOf(testDb.db) };
    } else {
      dir = mkdtempSync(join(tmpdir(), 'palimpsest-projector-'));
      storeEnv = { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(dir, 'data') };
    }
  });

  afterAll(async () => {
    for (const p of running) p.kill('SIGKILL');
    await Promise.all(running.map((p) => p.exited));
    await testDb?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const spawn = (opts: { crashAt?: number; exitWhenCaughtUp?: boolean } = {}) => {
    const p = spawnRecordingProjector(storeEnv, { name: NAME, table: TABLE, batch: 40, ...opts });
    running.push(p);
    return p;
  };

  /** The embedded store, opened by this process between projector runs. */
  async function withEmbedded<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    const db = await openDb({ dataDir: storeEnv.PALIMPSEST_DATA_DIR! });
    try {
      await migrate(db);
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  it(`applies every event exactly once after ${KILLS} SIGKILLs between a batch's apply and its commit`, async () => {
    const writers = testDb ? startWriters(testDb.db, appendToStream) : null;
    if (!testDb) {
      await withEmbedded(async (db) => {
        await createRecordingTable(db, TABLE);
        for (let s = 0; s < 40; s += 1) await appendToStream(db, uniqueStreamId(`crash-${s}`), 0, sampleEvents(25));
      });
    }
    const signals: (NodeJS.Signals | null)[] = [];
    for (let kill = 0; kill < KILLS; kill += 1) signals.push(await crashed(spawn({ crashAt: 1 + (kill % 2) })));
    expect(signals).toEqual(Array(KILLS).fill('SIGKILL'));
    const appended = (await writers?.stop()) ?? 1000;
    expect(appended).toBeGreaterThan(0);

    const last = spawn({ exitWhenCaughtUp: true });
    expect(await last.exited).toMatchObject({ code: 0 });
    const audit = testDb ? await auditRecording(testDb.db, TABLE) : await withEmbedded((db) => auditRecording(db, TABLE));
    expect(audit).toMatchObject(CLEAN);
    expect(audit.recorded).toBe(audit.events);
    expect(audit.events).toBeGreaterThanOrEqual(appended);
  }, 60_000);

  if (describeBackend === 'postgres') {
    it('hands the lead to a standby within seconds when the leader is SIGKILLed, and loses nothing', async () => {
      const db = testDb!.db;
      const leaderOf = async () => (await consumerStatusOf(db, { name: NAME, kind: 'projection' })).leader;
      const first = spawn();
      await first.ready;
      expect(await eventually(leaderOf, (l) => l === first.identity)).toBe(first.identity);
      const standby = spawn();
      await standby.ready;
      const writers = startWriters(db, appendToStream);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await leaderOf()).toBe(first.identity); // the standby waits while the leader lives

      first.kill('SIGKILL');
      const killedAt = performance.now();
      expect((await first.exited).signal).toBe('SIGKILL');
      expect(await eventually(leaderOf, (l) => l === standby.identity, { timeoutMs: 10_000 })).toBe(standby.identity);
      const takeoverMs = performance.now() - killedAt;
      expect(takeoverMs).toBeLessThan(5_000);

      await writers.stop();
      const audit = await eventually(() => auditRecording(db, TABLE), (a) => a.recorded >= a.events, { timeoutMs: 15_000 });
      expect(audit).toMatchObject(CLEAN);
      expect(audit.recorded).toBe(audit.events);
      const status = await consumerStatusOf(db, { name: NAME, kind: 'projection' });
      expect(status).toMatchObject({ state: 'running', lag_events: 0, leader: standby.identity });

      standby.kill('SIGTERM');
      expect(await standby.exited).toMatchObject({ code: 0 });
      expect(await consumerStatusOf(db, { name: NAME, kind: 'projection' })).toMatchObject({ state: 'stopped', leader: null });
    }, 60_000);
  }
});
