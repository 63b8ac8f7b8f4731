import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import type { Db, Tx } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import { describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { openDestination } from '@palimpsest/workspace/workspace-destination';
import { waitingLeases } from '@palimpsest/workspace/workspace-lease';
import { type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { type AppContext } from '../../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../../dispatch/dispatch';
import { ALLOW_ALL } from '@palimpsest/core/policy/owner-policy';
import { decideApproval } from '../approvals/approvals.handler';
import { DEFAULTS } from '../shared/candidate-config';
import { edit } from '../test-support/candidate-harness';
import { withTransactions } from '../test-support/wrapped-db';
import { createWorkspaceHarness, type WorkspaceHarness } from '../../test-support/workspace-harness';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * A Db that watches for the transaction appending `eventType`, once: `after` runs right after that
 * transaction commits, or, with `loseCommit`, the transaction is rolled back instead of committed (its
 * commit lost, after the files were installed).
 */
function hookedOn(db: Db, eventType: string, hook: { after?: () => void; loseCommit?: boolean }): Db {
  let armed = true;
  const transaction: Db['transaction'] = async (fn) => {
    let seen = false;
    const result = await db.transaction(async (tx: Tx) => {
      const r = await fn({ query: (text, params) => ((seen ||= armed && JSON.stringify(params ?? []).includes(eventType)), tx.query(text, params)), exec: (s) => tx.exec(s) });
      if (seen && armed && hook.loseCommit) {
        armed = false;
        throw new Error('injected: the commit was lost');
      }
      return r;
    });
    if (seen && armed) {
      armed = false;
      hook.after?.();
    }
    return result;
  };
  return withTransactions(db, transaction);
}

describe(`palimpsest_change_apply on workspace files on ${describeBackend}`, () => {
  let testDb: TestDb;
  let dir: string;
  let root: WorkspaceRoot;
  let ctx: AppContext;
  let n = 0;
  const call = (name: string, args: unknown, on = ctx) => dispatch(on, name, args) as Promise<Record<string, any>>;
  const file = (path: string) => readFileSync(join(dir, path)).toString();
  const stray = () => readdirSync(dir).filter((f) => f.startsWith('.palimpsest-'));
  const journals = async (requestId: string) =>
    (await testDb.db.query('SELECT journal_id::text, state FROM publication_journals WHERE request_id = $1 ORDER BY log_sequence', [requestId])).rows;

  async function imported(path: string, bytes: string): Promise<string> {
    writeFileSync(join(dir, path), bytes);
    const r = await call('palimpsest_initialize_target', { filename: path, from_workspace: true });
    expect(r.status).toBe('ok');
    return r.target_file_id;
  }
  async function candidate(targets: string[], operations: Record<string, unknown>[]): Promise<string> {
    const r = await call('palimpsest_change_propose', { request_id: `prop-${++n}`, base: targets.map((t) => ({ target_file_id: t, version: 0 })), operations });
    expect(r.status).toBe('ok');
    return r.candidate.id;
  }
  const apply = (cand: string, request_id: string, on = ctx) => call('palimpsest_change_apply', { candidate: cand, expected_candidate_version: 1, request_id }, on);
  const version = async (id: string) => (await call('palimpsest_get_target', { target_file_id: id })).version;
  const touched: string[] = [];

  let harness: WorkspaceHarness;
  beforeAll(async () => {
    harness = await createWorkspaceHarness('palimpsest-apply-');
    ({ testDb, dir, root, ctx } = harness);
  });
  afterAll(() => harness.dispose());

  it('publishes both files in their recorded line endings through one committed journal; the resend replays and writes nothing', async () => {
    const a = await imported('a.md', 'one\r\ntwo\r\n');
    const b = await imported('b.md', 'alpha\nbeta\n');
    touched.push(a, b);
    const cand = await candidate([a, b], [edit(a, 'two', 'TWO'), edit(b, 'beta', 'BETA')]);
    const r = await apply(cand, 'ws-apply-1');
    expect(r).toMatchObject({ status: 'ok', replayed: false, receipt: { outcome: 'applied', request_id: 'ws-apply-1', candidate: cand, candidate_version: 1, journal: { state: 'committed' } } });
    expect(file('a.md')).toBe('one\r\nTWO\r\n');
    expect(file('b.md')).toBe('alpha\nBETA\n');
    const expected = [
      { path: 'a.md', target_file_id: a, before_sha256: sha256('one\r\ntwo\r\n'), after_sha256: sha256('one\r\nTWO\r\n'), change: 'modified' },
      { path: 'b.md', target_file_id: b, before_sha256: sha256('alpha\nbeta\n'), after_sha256: sha256('alpha\nBETA\n'), change: 'modified' },
    ].sort((x, y) => (x.target_file_id < y.target_file_id ? -1 : 1));
    expect(r.receipt.files).toEqual(expected);
    expect(await journals('ws-apply-1')).toEqual([{ journal_id: r.receipt.journal.id, state: 'committed' }]);
    expect((await readStream(testDb.db, `publication-${r.receipt.journal.id}`)).map((e) => e.type)).toEqual(['PublicationStarted', 'PublicationCompleted']);
    expect(stray()).toEqual([]);
    const baselines = (await testDb.db.query('SELECT target_id::text, disk_sha256, open_journal_id FROM workspace_files WHERE target_id = ANY($1::uuid[]) ORDER BY target_id', [[a, b]])).rows;
    expect(baselines).toEqual(expected.map((f) => ({ target_id: f.target_file_id, disk_sha256: f.after_sha256, open_journal_id: null })));

    writeFileSync(join(dir, 'b.md'), 'alpha\nBETA\n'); // same bytes, a new inode: a second write would show in the journals and versions
    const again = await apply(cand, 'ws-apply-1');
    expect(again).toEqual({ ...r, replayed: true });
    expect(await journals('ws-apply-1')).toHaveLength(1);
    expect([await version(a), await version(b)]).toEqual([1, 1]);
  });

  it('refuses a drifted second file as external_write and writes neither file', async () => {
    const a = await imported('c.md', 'c1\n');
    const b = await imported('d.md', 'd1\n');
    const cand = await candidate([a, b], [edit(a, 'c1', 'C1'), edit(b, 'd1', 'D1')]);
    const second = [['c.md', a], ['d.md', b]].sort((x, y) => (x[1] < y[1] ? -1 : 1))[1];
    writeFileSync(join(dir, second[0]), 'edited by hand\n');
    const r = await apply(cand, 'ws-apply-drift');
    expect(r.error).toMatchObject({
      code: 'precondition_failed', reason: 'external_write', retryable: 'after_refresh',
      details: { path: second[0], target_file_id: second[1], expected_sha256: sha256(second[0] === 'c.md' ? 'c1\n' : 'd1\n'), observed_sha256: sha256('edited by hand\n'), journal: null },
      next_actions: [{ operation: 'palimpsest_workspace_refresh', params: { target_file_id: second[1] } }, { operation: 'palimpsest_change_discard' }],
    });
    expect(file(second[0])).toBe('edited by hand\n');
    expect(file(second[0] === 'c.md' ? 'd.md' : 'c.md')).toMatch(/^[cd]1\n$/);
    expect([await version(a), await version(b)]).toEqual([0, 0]);
    expect(await journals('ws-apply-drift')).toEqual([]);
  });

  it('refuses a file edited while the apply is under way (after its journal started), rolling the journal back', async () => {
    const a = await imported('e.md', 'e1\n');
    const b = await imported('f.md', 'f1\n');
    const cand = await candidate([a, b], [edit(a, 'e1', 'E1'), edit(b, 'f1', 'F1')]);
    const during = appContext(hookedOn(testDb.db, 'PublicationStarted', { after: () => writeFileSync(join(dir, 'f.md'), 'edited meanwhile\n') }), { workspace: root, contents: ctx.contents, leases: ctx.leases });
    const r = await apply(cand, 'ws-apply-during', during);
    expect(r.error).toMatchObject({ code: 'precondition_failed', reason: 'external_write', details: { path: 'f.md', observed_sha256: sha256('edited meanwhile\n'), journal: { state: 'rolled_back' } } });
    expect([file('e.md'), file('f.md')]).toEqual(['e1\n', 'edited meanwhile\n']);
    expect(await journals('ws-apply-during')).toEqual([{ journal_id: r.error.details.journal.id, state: 'rolled_back' }]);
    expect([await version(a), await version(b)]).toEqual([0, 0]);
    expect(stray()).toEqual([]);
  });

  it('answers resource_limit workspace_busy (same_request) when another holds the lease past its bounded wait, then applies on the resend', async () => {
    const a = await imported('busy.md', 'x\n');
    touched.push(a);
    const cand = await candidate([a], [edit(a, 'x', 'y')]);
    const opened = openDestination(root, 'busy.md', { createParents: false });
    if (opened.kind !== 'opened') throw new Error('no destination');
    const lease = await ctx.leases.tryAcquire([opened.dest.dir]);
    const impatient = appContext(testDb.db, { workspace: root, contents: ctx.contents, leases: waitingLeases(ctx.leases, 50) });
    try {
      const r = await apply(cand, 'ws-apply-busy', impatient);
      expect(r.error).toMatchObject({ code: 'resource_limit', reason: 'workspace_busy', retryable: 'same_request', details: { paths: ['busy.md'], waited_ms: 50 }, next_actions: [{ operation: 'palimpsest_change_apply', params: { request_id: 'ws-apply-busy' } }] });
      expect(file('busy.md')).toBe('x\n');
    } finally {
      await lease?.release();
      opened.dest.close();
    }
    expect((await apply(cand, 'ws-apply-busy')).receipt).toMatchObject({ outcome: 'applied' });
    expect(file('busy.md')).toBe('y\n');
  });

  it('answers outcome unknown when the commit is lost after installation; the same request rolls the journal back and applies once', async () => {
    const a = await imported('u1.md', 'u1\r\n');
    const b = await imported('u2.md', 'u2\n');
    touched.push(a, b);
    const cand = await candidate([a, b], [edit(a, 'u1', 'U1'), edit(b, 'u2', 'U2')]);
    const lossy = appContext(hookedOn(testDb.db, 'PublicationCompleted', { loseCommit: true }), { workspace: root, contents: ctx.contents, leases: ctx.leases });
    const lost = await apply(cand, 'ws-apply-lost', lossy);
    expect(lost.error).toMatchObject({
      code: 'internal', reason: 'outcome_unknown', retryable: 'same_request',
      details: { outcome: 'unknown', journal: { state: 'pending_reconcile' }, receipt: { outcome: 'unknown', request_id: 'ws-apply-lost' } },
      next_actions: [{ operation: 'palimpsest_change_apply', params: { candidate: cand, request_id: 'ws-apply-lost' } }],
    });
    expect([file('u1.md'), file('u2.md')]).toEqual(['U1\r\n', 'U2\n']); // installed, and not recorded
    expect([await version(a), await version(b)]).toEqual([0, 0]);

    const r = await apply(cand, 'ws-apply-lost');
    expect(r).toMatchObject({ status: 'ok', replayed: false, receipt: { outcome: 'applied', journal: { state: 'committed' } } });
    expect(await journals('ws-apply-lost')).toEqual([
      { journal_id: lost.error.details.journal.id, state: 'rolled_back' },
      { journal_id: r.receipt.journal.id, state: 'committed' },
    ]);
    expect([file('u1.md'), file('u2.md')]).toEqual(['U1\r\n', 'U2\n']);
    expect([await version(a), await version(b)]).toEqual([1, 1]);
    expect(stray()).toEqual([]);
  });

  it('answers conflict recovery_required when an interrupted apply left a file that is neither version, and never overwrites it', async () => {
    const a = await imported('r1.md', 'r1\n');
    const b = await imported('r2.md', 'r2\n');
    const cand = await candidate([a, b], [edit(a, 'r1', 'R1'), edit(b, 'r2', 'R2')]);
    const lossy = appContext(hookedOn(testDb.db, 'PublicationCompleted', { loseCommit: true }), { workspace: root, contents: ctx.contents, leases: ctx.leases });
    expect((await apply(cand, 'ws-apply-pending', lossy)).error).toMatchObject({ reason: 'outcome_unknown' });
    writeFileSync(join(dir, 'r2.md'), 'a third version\n');
    const r = await apply(cand, 'ws-apply-pending');
    expect(r.error).toMatchObject({
      code: 'conflict', reason: 'recovery_required', retryable: 'none',
      details: { paths: ['r2.md'], journal: { state: 'pending_reconcile' } },
      next_actions: [{ operation: 'palimpsest_workspace_status', params: { path_prefix: 'r2.md' } }],
    });
    expect([file('r1.md'), file('r2.md')]).toEqual(['r1\n', 'a third version\n']); // the first file's backup was put back
    expect(await journals('ws-apply-pending')).toEqual([{ journal_id: r.error.details.journal.id, state: 'pending_reconcile' }]);
    expect([await version(a), await version(b)]).toEqual([0, 0]);
    expect((await apply(cand, 'ws-apply-pending')).error).toMatchObject({ reason: 'recovery_required' });
  });

  it('writes bound and unbound targets of one candidate together, publishing only the bound file', async () => {
    const bound = await imported('g.md', 'g1\n');
    const inline = (await call('palimpsest_initialize_target', { filename: 'inline.md', content: 'i1\n' })).target_file_id;
    touched.push(bound, inline);
    const cand = await candidate([bound, inline], [edit(bound, 'g1', 'G1'), edit(inline, 'i1', 'I1')]);
    const r = await apply(cand, 'ws-apply-mixed');
    expect(r).toMatchObject({ status: 'ok', receipt: { outcome: 'applied', journal: { state: 'committed' }, files: [{ path: 'g.md', target_file_id: bound, change: 'modified' }] } });
    expect(r.receipt.targets).toHaveLength(2);
    expect(file('g.md')).toBe('G1\n');
    expect((await call('palimpsest_get_target', { target_file_id: inline })).current_content).toBe('I1\n');
    expect([await version(bound), await version(inline)]).toEqual([1, 1]);

  });

  it('answers an apply that writes no file as before: journal null and no files', async () => {
    const inline = (await call('palimpsest_initialize_target', { filename: 'only.md', content: 'o1\n' })).target_file_id;
    touched.push(inline);
    const cand = await candidate([inline], [edit(inline, 'o1', 'O1')]);
    const r = await apply(cand, 'ws-apply-none');
    expect(r).toMatchObject({ status: 'ok', receipt: { outcome: 'applied', journal: null, files: [] } });
    expect((await apply(cand, 'ws-apply-none')).replayed).toBe(true);
  });

  it('under an approval policy records ApprovalRequested before any file work, and publishes on the attempt that applies', async () => {
    const a = await imported('h.md', 'h1\r\n');
    touched.push(a);
    const cand = await candidate([a], [edit(a, 'h1', 'H1')]);
    const reviewed = { ...ALLOW_ALL, name: 'reviewed', approve: true };
    Object.assign(ctx.candidates, { approvalWaitMs: 50, approvalPollMs: 20 });
    try {
      const args = { candidate: cand, expected_candidate_version: 1, request_id: 'ws-apply-approval' };
      const waited = (await dispatch(ctx, 'palimpsest_change_apply', args, { policy: reviewed })) as Record<string, any>;
      expect(waited.error).toMatchObject({ reason: 'approval_timeout', retryable: 'same_request' });
      expect(file('h.md')).toBe('h1\r\n');
      expect(await journals('ws-apply-approval')).toEqual([]);
      expect((await decideApproval(ctx, { approval_id: waited.error.details.approval_id, decision: 'grant', decided_by: 'ops', note: null })).status).toBe('ok');
      const r = (await dispatch(ctx, 'palimpsest_change_apply', args, { policy: reviewed })) as Record<string, any>;
      expect(r).toMatchObject({ status: 'ok', receipt: { outcome: 'applied', approval_id: waited.error.details.approval_id, journal: { state: 'committed' } } });
      expect(file('h.md')).toBe('H1\r\n');
    } finally {
      Object.assign(ctx.candidates, { approvalWaitMs: DEFAULTS.approvalWaitMs, approvalPollMs: DEFAULTS.approvalPollMs });
    }
  });

  it('replays every touched target and rebuilds every read model to what it replaced', async () => {
    for (const id of touched) expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', materialized_state_matches: true });
    for (const id of touched) {
      const log = await call('palimpsest_get_attempt_log', { target_file_id: id });
      expect(log.entries.filter((e: any) => e.status === 'accepted')).toHaveLength(1);
    }
    expect(await rebuildProjections(testDb.db)).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
  });
});
