import { appendToStream } from '@palimpsest/store/append-to-stream';
import { archiveBefore } from '@palimpsest/store/log-archive';
import { rollLog } from '@palimpsest/store/log-partitions';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { loadCheckpoint } from '../async/projection-checkpoints';
import { startAtLogHead } from './git-commits.queries';

describe(`a git-commit consumer's first start on a log whose head is archived (${describeBackend})`, () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb();
  });
  afterAll(() => testDb.dispose());

  it('starts at the last archived event, not at the beginning of the history', async () => {
    const { db } = testDb;
    await appendToStream(db, uniqueStreamId('g'), 0, sampleEvents(3));
    const { rows } = await db.query<{ p: string; x: string }>('SELECT max(global_position)::text AS p, max(transaction_xid)::text AS x FROM events');
    await rollLog(db);
    expect((await archiveBefore(db, { beforePosition: Number.MAX_SAFE_INTEGER })).map((a) => a.events)).toEqual([3]);
    expect((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM events')).rows[0]!.n).toBe('0');

    await startAtLogHead(db, 'git_commits_archived');
    expect(await loadCheckpoint(db, 'git_commits_archived')).toMatchObject({ position: Number(rows[0]!.p), xid: rows[0]!.x });
  });
});
