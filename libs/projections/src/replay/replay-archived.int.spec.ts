import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { archiveBefore } from '@palimpsest/store/log-archive';
import { attachedEpochs, currentEpoch, rollLog } from '@palimpsest/store/log-partitions';
import { readStream } from '@palimpsest/store/read-stream';
import { currentStreamVersion } from '@palimpsest/store/stream-version';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { sampleEvent, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend } from '@palimpsest/store/test-support/test-db';

/**
 * Replay of targets whose events were archived (detached from the log into palimpsest_archive) while
 * writers ran: the replay reads them from the archive, and an edit of an archived target goes on.
 */
describe(`replay from the archive on ${describeBackend}`, () => {
  let h: AppHarness;
  afterAll(() => h.dispose());

  const edit = async (id: string, version: number, from: string, to: string) =>
    h.call('palimpsest_submit_operations', {
      target_file_id: id, intent: `${from} to ${to}`, expected_target_version: version,
      operations: [{ op: 'match', match: from, replace: to }],
    });

  it('detaches and archives an old partition while writers run; replay of an archived target still works from the archive', async () => {
    h = await createAppHarness();
    const archivedTarget = await h.target('alpha beta gamma\n', 'archived.md');
    expect(await edit(archivedTarget, 0, 'beta', 'BETA')).toMatchObject({ status: 'accepted', version: 1 });
    expect(await edit(archivedTarget, 1, 'gamma', 'GAMMA')).toMatchObject({ status: 'accepted', version: 2 });
    const liveTarget = await h.target('one two\n', 'live.md');

    const db = h.testDb.db;
    const closing = await currentEpoch(db);
    let stop = false;
    let written = 0;
    let edits = 0;
    const writers = [uniqueStreamId('w'), uniqueStreamId('w')].map(async (stream, w) => {
      for (let i = 0; !stop; i++) {
        try {
          await db.transaction(async (tx) => appendToStream(tx, stream, await currentStreamVersion(tx, stream), [sampleEvent(w * 1000 + i)]));
          written++;
        } catch (error) {
          if (!(error instanceof StreamVersionConflictError)) throw error;
        }
        await new Promise((resolve) => setImmediate(resolve)); // PGlite answers in microtasks: let the others in
      }
    });
    const editor = (async () => {
      for (let v = 0; !stop; v++) {
        expect(await edit(liveTarget, v, v % 2 ? 'TWO' : 'two', v % 2 ? 'two' : 'TWO')).toMatchObject({ status: 'accepted', version: v + 1 });
        edits++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      await eventually(async () => written, (n) => n > 5);
      await rollLog(db);
      const { rows } = await db.query<{ p: string }>('SELECT max(global_position) AS p FROM events');
      const archived = await archiveBefore(db, { beforePosition: Number(rows[0]!.p) + 1 });
      expect(archived.map((a) => a.epoch)).toEqual([closing]);
      const after = { written, edits };
      await eventually(async () => written + edits, (n) => n > after.written + after.edits + 5);
    } finally {
      stop = true;
      await Promise.all([...writers, editor]);
    }
    expect(await attachedEpochs(db)).not.toContain(closing);

    // Every event of the archived target is in the archive now, and replay reads them from there.
    const stream = await readStream(db, targetStreamId(archivedTarget));
    expect(stream.length).toBeGreaterThanOrEqual(3);
    expect(stream.every((e) => e.archived === true)).toBe(true);
    expect(await h.call('palimpsest_replay', { target_file_id: archivedTarget })).toMatchObject({
      status: 'success', accepted_transactions_replayed: 2, materialized_state_matches: true, current_version: 2,
    });

    // An edit of the archived target goes on from its archived head; replay then reads the archive and the log.
    expect(await edit(archivedTarget, 2, 'alpha', 'ALPHA')).toMatchObject({ status: 'accepted', version: 3 });
    expect(await h.call('palimpsest_replay', { target_file_id: archivedTarget })).toMatchObject({
      status: 'success', accepted_transactions_replayed: 3, materialized_state_matches: true, reconstructed_hash: expect.any(String),
    });
    expect(await h.call('palimpsest_replay', { target_file_id: liveTarget })).toMatchObject({
      status: 'success', accepted_transactions_replayed: edits, materialized_state_matches: true,
    });
  });
});
