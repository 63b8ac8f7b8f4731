import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainLink, eventDigest, GENESIS_LINK } from '@palimpsest/core/audit/event-chain';
import { AppendBatcher } from '@palimpsest/store/append-batcher';
import { appendTogether } from '@palimpsest/store/append-guarded-batch';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db } from '@palimpsest/store/db';
import { defaultMigrationsDir, migrate, readMigrations } from '@palimpsest/store/migrate';
import { readStream } from '@palimpsest/store/read-stream';
import { sql } from '@palimpsest/store/sql-fragment';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { sampleEvent, sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';

/** migrations/0025_event_chain.sql: every append links its events to the stream's previous one, in SQL. */
describe(`the hash chain of a stream (${describeBackend})`, () => {
  let testDb: TestDb;
  let db: Db;

  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
  });
  afterAll(() => testDb.dispose());

  it('links each event to the one before it, over one-event, many-event and transactional appends', async () => {
    const stream = uniqueStreamId('chain');
    await appendToStream(db, stream, 0, [sampleEvent(1)]);
    await appendToStream(db, stream, 1, sampleEvents(3, 2));
    await db.transaction((tx) => appendToStream(tx, stream, 4, [sampleEvent(5, { metadata: { by: 'x' }, data: { é: [1.5, null, 'ü'] } })]));
    expect(await storedLinks(db, stream)).toEqual(expectedLinks(await readStream(db, stream)));
  });

  it('links events appended together to distinct streams and through the group commit', async () => {
    const [a, b] = [uniqueStreamId('chain-a'), uniqueStreamId('chain-b')];
    await appendTogether(db, [
      { streamId: a, expectedVersion: 0, events: sampleEvents(2) },
      { streamId: b, expectedVersion: 0, events: sampleEvents(1, 7) },
    ]);
    const batcher = new AppendBatcher(db, { inFlight: 1 });
    const always = sql`SELECT 1`;
    await Promise.all([
      batcher.append({ streamId: a, expectedVersion: 2, events: [sampleEvent(3)], guard: always }),
      batcher.append({ streamId: b, expectedVersion: 1, events: [sampleEvent(8)], guard: always }),
    ]);
    for (const stream of [a, b]) expect(await storedLinks(db, stream)).toEqual(expectedLinks(await readStream(db, stream)));
  });

  it('refuses a row without a 32-byte link', async () => {
    await expect(
      db.query(`INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, recorded_at) VALUES ($1, 1, 'T', 1, '{}', now())`, [
        uniqueStreamId(),
      ]),
    ).rejects.toMatchObject({ code: '23514', message: expect.stringContaining('events_with_chain_hash') });
  });
});

describe(`events written before the chain (${describeBackend})`, () => {
  let testDb: TestDb;
  let dir: string;

  beforeAll(async () => {
    testDb = await createTestDb({ migrate: false });
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-chain-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await testDb.dispose();
  });

  it('are chained by the migration, and appends go on from their last link', async () => {
    const db = testDb.db;
    for (const file of readMigrations(defaultMigrationsDir()).filter((m) => m.version < '0025')) {
      cpSync(join(defaultMigrationsDir(), `${file.name}.sql`), join(dir, `${file.name}.sql`));
    }
    await migrate(db, { dir });
    const streams = [uniqueStreamId('old'), uniqueStreamId('old')];
    for (const [i, stream] of streams.entries()) {
      await db.query(
        `INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
         SELECT $1, v, 'Old', 1, jsonb_build_object('v', v, 'text', 'x' || v), '{}', '2024-01-01T00:00:00.123Z'::timestamptz + v * interval '1 s'
         FROM generate_series(1, $2::int) AS v`,
        [stream, 3 + i],
      );
    }
    expect(await migrate(db)).toEqual({ applied: readMigrations(defaultMigrationsDir()).filter((m) => m.version >= '0025').map((m) => m.name) });
    await appendToStream(db, streams[0]!, 3, [sampleEvent(9)]);
    for (const stream of streams) expect(await storedLinks(db, stream)).toEqual(expectedLinks(await readStream(db, stream)));
    await expect(db.query('UPDATE events SET chain_hash = chain_hash WHERE false')).rejects.toMatchObject({ code: '23001' });
  });
});

async function storedLinks(db: Db, stream: string): Promise<string[]> {
  const { rows } = await db.query<{ link: string }>(
    `SELECT encode(chain_hash, 'hex') AS link FROM events WHERE stream_id = $1 ORDER BY stream_version`,
    [stream],
  );
  return rows.map((row) => row.link);
}

/** The chain as docs/audit-log.md defines it, computed here from what was read. */
function expectedLinks(events: StoredEvent[]): string[] {
  let previous = GENESIS_LINK;
  return events.map((event) => (previous = chainLink(previous, eventDigest(event))));
}
