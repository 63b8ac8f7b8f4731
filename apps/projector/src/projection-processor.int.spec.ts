import { searchProjection } from '@palimpsest/projections/async/search/search.projection';
import { advanceCheckpoint, loadCheckpoint } from '@palimpsest/projections/async/projection-checkpoints';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import { checkpointOf, readAll } from '@palimpsest/store/read-all';
import { CountingDb } from '@palimpsest/store/test-support/counting-db';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { projectionProcessor } from './projection-processor';

describe(`a projection's batch of events it does not follow, on ${describeBackend}`, () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb();
  });
  afterAll(() => testDb.dispose());

  it('moves the checkpoint in one statement, with no transaction', async () => {
    await appendToStream(testDb.db, uniqueStreamId('command-run'), 0, sampleEvents(3));
    // On PostgreSQL the read waits for the cluster-wide xmin, which other suites' open transactions hold back.
    const events = await eventually(() => readAll(testDb.db, { after: null, limit: 100 }), (read) => read.length >= 3, { timeoutMs: 120_000 });
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.some((e) => searchProjection.canHandle!(e))).toBe(false);
    const from = await loadCheckpoint(testDb.db, searchProjection.name);
    const counted = new CountingDb(testDb.db);
    const to = checkpointOf(events.at(-1)!);
    await projectionProcessor(counted, searchProjection).handle(events, {
      from,
      to,
      commit: async (sql = counted) => {
        expect(await advanceCheckpoint(sql, searchProjection.name, from, to, events.length)).toBe(true);
      },
    });
    expect({ statements: counted.statements, transactions: counted.transactions }).toEqual({ statements: 1, transactions: 0 });
    expect(await loadCheckpoint(testDb.db, searchProjection.name)).toMatchObject({ position: to.position });
  }, 150_000);
});
