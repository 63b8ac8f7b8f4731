import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from 'nats';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openPgliteDb } from '@palimpsest/store/pglite/pglite-db';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import { sampleEvents } from '@palimpsest/store/test-support/sample-events';
import { readAll } from '@palimpsest/store/read-all';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { createTestDb, databaseUrlOf, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { RELAY_ENV } from './relay-config';
import type { ConsumerCrashPointName } from '@palimpsest/testing/crash-point';
import { connectNats, deleteStream, NATS_URL, readJetStream, uniqueRelayTarget } from './test-support/jetstream-reader';
import { auditAgainst, auditRelayed, cleanAudit } from './test-support/relayed-events';
import { spawnRelay, type RelayProcess } from './test-support/spawn-relay';
import { appenderWith, engineStreamId } from './test-support/writers';

const appendNext = appenderWith(appendToStream);
const onPostgres = describeBackend === 'postgres';
/**
 * A relay on PGlite owns the data directory and each start opens it (seconds on a busy machine): there one
 * round, at the crash point between the acks and the checkpoint, then the restart.
 */
const LOOPS = onPostgres ? 6 : 1;
const STREAMS = 24;
/** PGlite is one process's: its events are written before the relay runs (on PostgreSQL a writer runs throughout). */
const PGLITE_EVENTS_PER_STREAM = 25;
const PGLITE_EVENTS = STREAMS * PGLITE_EVENTS_PER_STREAM;

/** Where the relay process is killed, loop by loop: at each crash point, and at random moments. */
const KILLS = ['relay.after_acks', 'relay.mid_publish', 'random'] as const satisfies readonly (ConsumerCrashPointName | 'random')[];

describe(`relay process killed with SIGKILL (${describeBackend}, real NATS)`, () => {
  const target = uniqueRelayTarget();
  let nc: NatsConnection;
  let testDb: TestDb | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    nc = await connectNats();
  });
  afterAll(async () => {
    await deleteStream(nc, target.stream);
    await nc?.close();
    await testDb?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const baseEnv = (): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, [RELAY_ENV.url]: NATS_URL, [RELAY_ENV.stream]: target.stream, [RELAY_ENV.subjectPrefix]: target.subjectPrefix, [RELAY_ENV.batchSize]: '40' };
    delete env.PALIMPSEST_CRASH_POINT;
    return env;
  };

  it('leaves no gap and no duplicate in JetStream after kills mid-batch, between acks and checkpoint, and at random', async () => {
    const env = baseEnv();
    let db: Db;
    let writing: Promise<void> = Promise.resolve();
    let stopWriting = false;
    let seeded: StoredEvent[] = [];
    if (onPostgres) {
      testDb = await createTestDb();
      db = testDb.db;
      env.DATABASE_URL = await databaseUrlOf(db);
      const streams = Array.from({ length: STREAMS }, (_, i) => engineStreamId(i));
      writing = (async () => {
        for (let round = 0; !stopWriting; round += 1) {
          await Promise.all(streams.slice(0, 6).map((_, k) => appendNext(db, streams[(round * 6 + k) % STREAMS]!)));
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'palimpsest-relay-crash-'));
      db = await openPgliteDb({ dataDir });
      await migrate(db);
      const streams = Array.from({ length: STREAMS }, (_, i) => engineStreamId(i));
      for (const stream of streams) await appendToStream(db, stream, 0, sampleEvents(PGLITE_EVENTS_PER_STREAM));
      seeded = await readAll(db, { limit: PGLITE_EVENTS + 1 });
      await db.close();
      delete env.DATABASE_URL;
      env.PALIMPSEST_DATA_DIR = dataDir;
    }

    const runs: RelayProcess[] = [];
    for (let loop = 0; loop < LOOPS; loop += 1) {
      const kill = KILLS[loop % KILLS.length]!;
      const relay = spawnRelay(kill === 'random' ? env : { ...env, PALIMPSEST_CRASH_POINT: kill });
      runs.push(relay);
      await relay.waitFor((line) => line.msg === 'relay leads');
      if (kill === 'random') {
        await new Promise((r) => setTimeout(r, 50 + Math.floor(Math.random() * 400)));
        relay.child.kill('SIGKILL');
      } else {
        // The crash point fires at the first batch (the pending events guarantee one).
        const guard = setTimeout(() => relay.child.kill('SIGTERM'), 15_000);
        await relay.ended.finally(() => clearTimeout(guard));
      }
      expect({ loop, kill, ended: await relay.ended }).toEqual({ loop, kill, ended: { code: null, signal: 'SIGKILL' } });
    }

    stopWriting = true;
    await writing;
    const last = spawnRelay(env);
    runs.push(last);
    await last.waitFor((line) => line.msg === 'relay leads');
    if (onPostgres) {
      const total = Number((await db.query<{ n: number }>('SELECT count(*)::bigint AS n FROM events')).rows[0]!.n);
      await eventually(() => readJetStream(nc, target.stream), (m) => m.length >= total, { timeoutMs: 20_000 });
    } else {
      await eventually(async () => (await (await nc.jetstreamManager()).streams.info(target.stream)).state.messages, (n) => n >= PGLITE_EVENTS, { timeoutMs: 20_000 });
    }
    last.child.kill('SIGTERM');
    expect(await last.ended).toEqual({ code: 0, signal: null });

    const messages = await readJetStream(nc, target.stream);
    // PGlite: the events as written (reopening the data directory would cost seconds more).
    const audit = onPostgres ? await auditRelayed(db, messages, target.subjectPrefix) : auditAgainst(seeded, messages, target.subjectPrefix);
    expect(audit).toEqual(cleanAudit(audit.events));
    expect(audit.events).toBeGreaterThan(100);
    // The tail acked but not checkpointed was published again, and JetStream dropped it as a duplicate.
    const duplicates = runs.flatMap((r) => r.lines).filter((l) => l.msg === 'relay batch').reduce((sum, l) => sum + Number(l.duplicates), 0);
    expect(duplicates).toBeGreaterThan(0);
    expect(runs.flatMap((r) => r.lines).filter((l) => l.msg === 'relay ack out of order')).toEqual([]);
  }, 60_000);

  it('is off when PALIMPSEST_NATS_URL is unset: says so and exits 0 without touching the store', async () => {
    const env = baseEnv();
    delete env[RELAY_ENV.url];
    env.DATABASE_URL = 'postgres://nobody@127.0.0.1:1/none'; // never opened
    const relay = spawnRelay(env);
    expect(await relay.ended).toEqual({ code: 0, signal: null });
    expect(relay.lines).toEqual([{ level: 'info', msg: 'relay off', env: 'PALIMPSEST_NATS_URL' }]);
  });
});
