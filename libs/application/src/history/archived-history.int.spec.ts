import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import { auditSigner } from '@palimpsest/projections/audit/audit-signer';
import { sessionActivity } from '@palimpsest/projections/command-runs/session-activity.queries';
import { acceptancesOfAttempt, fileRecordAt } from '@palimpsest/projections/git-commits/git-commits.queries';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { archiveBefore, beginArchive } from '@palimpsest/store/log-archive';
import { attachedEpochs, currentEpoch, rollLog } from '@palimpsest/store/log-partitions';
import { readStream } from '@palimpsest/store/read-stream';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { exportBundle } from '../audit/audit-bundle.use-case';
import { dispatchRequest, type DispatchOptions } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

/**
 * The reads that answer from history (as-of reads, file history, attempt lookups, session activity, the
 * audit export, the git-commit checks) answer the same once the events they read are archived: halfway
 * (an epoch in both the log and the archive) and when the archive is done.
 */
describe(`history reads of an archived log on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const key = auditSigner(generateKeyPairSync('ed25519').privateKey, 'palimpsest.test', 'palimpsest.test/log').verifierKey;
  const call = async (tool: string, args: unknown, opts: DispatchOptions = {}) => (await dispatchRequest(h.ctx, tool, args, opts)) as Record<string, any>;
  let session: string;
  let fileTarget: string;
  let standalone: string;
  const keyed = () => ({
    target_file_id: standalone, client_request_id: 'archived-history-1', intent: 'keyed', expected_target_version: 0,
    operations: [{ op: 'match', match: 'standalone', replace: 'STANDALONE' }],
  });

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-archived-history-');
    session = h.ctx.ids.next();
    writeFileSync(join(h.dir, 'a.txt'), 'one\ntwo\nthree\n');
    for (const [from, to] of [['one', 'ONE'], ['two', 'TWO'], ['three', 'THREE']]) {
      const r = await call('edit_file', { path: 'a.txt', oldString: from, newString: to }, { correlationId: session });
      expect(r).toMatchObject({ status: 'ok' });
      fileTarget = r.target_file_id;
    }
    expect(await call('edit_file', { path: 'a.txt', oldString: 'no such text', newString: 'x' }, { correlationId: session })).toMatchObject({ status: 'rejected' });
    expect(await call('run_command', { command: 'node -e "process.exit(3)"' }, { correlationId: session })).toMatchObject({ status: 'ok', exitCode: 3 });
    standalone = (await call('palimpsest_initialize_target', { filename: 'note.md', content: 'a standalone note\n' })).target_file_id;
    expect(await call('palimpsest_submit_operations', keyed())).toMatchObject({ status: 'accepted', version: 1 });
  });
  afterAll(async () => {
    await h.ctx.commands.stop();
    await h.dispose();
  });

  type Point = { log_sequence: number; written_at: string; attempt_id: string };

  /** Every read under test, as its caller gets it; v1 and v2 are the file's versions 1 and 2. */
  async function reads(v1: Point, v2: Point) {
    const db = h.testDb.db;
    const versions = [];
    for (let version = 0; version <= 3; version++) versions.push(await call('read_file', { path: 'a.txt', as_of: { version } }));
    const attempts = await call('palimpsest_get_attempt_log', { target_file_id: fileTarget, detail: true });
    return {
      history: await call('palimpsest_file_history', { path: 'a.txt' }),
      versions,
      byPosition: await call('palimpsest_get_target', { target_file_id: fileTarget, as_of: { position: v2.log_sequence } }),
      byTime: await call('palimpsest_get_target', { target_file_id: fileTarget, as_of: { time: v1.written_at } }),
      workspace: await call('palimpsest_workspace_as_of', { as_of: { position: v2.log_sequence } }),
      diff: await call('palimpsest_diff_versions', { target_file_id: fileTarget, from: { version: 0 }, to: { version: 3 } }),
      attempts,
      standaloneAttempts: await call('palimpsest_get_attempt_log', { target_file_id: standalone, detail: true }),
      keyedAgain: await call('palimpsest_submit_operations', keyed()),
      sessionEntries: await call('palimpsest_session_activity', { correlation_id: session }),
      sessions: await call('palimpsest_list_sessions', {}),
      sessionEvents: await sessionActivity(db, session),
      fileBundle: await exportBundle(h.ctx, key, { targets: [fileTarget] }),
      wholeBundle: await exportBundle(h.ctx, key),
      acceptances: await acceptancesOfAttempt(db, v2.attempt_id),
      fileRecord: await fileRecordAt(db, fileTarget, v2.log_sequence),
      ledger: await call('palimpsest_get_manifest_ledger', { target_file_id: standalone }),
    };
  }

  /** Read by read, so a failure names the read that changed. */
  const expectSame = <T extends object>(after: T, before: T) => {
    for (const name of Object.keys(before) as (keyof T)[]) expect({ [name]: after[name] }).toEqual({ [name]: before[name] });
  };

  it('answers each read the same while an epoch is being archived and once it is archived, each event once', async () => {
    const db = h.testDb.db;
    const [v1, v2] = (await call('palimpsest_file_history', { path: 'a.txt' })).versions.slice(1, 3).reverse() as Point[];
    const before = await reads(v1!, v2!);
    expect(before.history.versions).toHaveLength(4);
    expect(before.attempts.entries).toHaveLength(4);
    expect(before.keyedAgain).toMatchObject({ status: 'accepted', version: 1 });
    expect(before.sessionEntries.entries.map((e: { status: string }) => e.status)).toEqual(['accepted', 'accepted', 'accepted', 'rejected', 'exited']);
    expect(before.acceptances).toHaveLength(1);
    expect(before.fileRecord?.binding).toMatchObject({ path: 'a.txt' });
    expect(before.ledger.entries).toHaveLength(1);

    const closing = await currentEpoch(db);
    await rollLog(db);
    // Halfway: the epoch is recorded as archived and read from both events and events_archive.
    await beginArchive(db, closing);
    expectSame(await reads(v1!, v2!), before);

    await archiveBefore(db, { beforePosition: Number.MAX_SAFE_INTEGER });
    expect(await attachedEpochs(db)).not.toContain(closing);
    const stream = await readStream(db, targetStreamId(fileTarget));
    expect(stream.length).toBeGreaterThanOrEqual(4);
    expect(stream.every((e) => e.archived === true)).toBe(true);
    expectSame(await reads(v1!, v2!), before);
    // The read models rebuilt from the log alone come out the same: publications and candidates found in the archive too.
    expect(await rebuildProjections(db)).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
  });
});
