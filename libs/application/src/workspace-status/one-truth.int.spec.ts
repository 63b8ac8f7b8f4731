import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

const SOURCE = 'export function alpha(x: number) {\n  return x + 1;\n}\n\nexport function beta() {\n  return 2;\n}\n';

/**
 * One truth about the disk: whatever tool accepts a change to a target bound to a workspace file, the
 * file holds the target's text before the answer (publish on_accept), or workspace status says pending
 * and the read tools answer from the target's text (publish on_save). read_file never contradicts status.
 */
describe(`every write path on a bound target, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  let ctx: AppContext;
  let n = 0;
  const call = (name: string, args: unknown, on = ctx) => dispatch(on, name, args) as Promise<Record<string, any>>;
  const disk = (path: string) => readFileSync(join(h.dir, path), 'utf8');
  const target = (id: string) => call('palimpsest_get_target', { target_file_id: id });
  const status = async (path: string) => (await call('palimpsest_workspace_status', { path_prefix: path })).files[0];

  async function bound(path: string, text: string, extra: Record<string, unknown> = {}): Promise<string> {
    writeFileSync(join(h.dir, path), text);
    const r = await call('palimpsest_initialize_target', { filename: path, from_workspace: true, ...extra });
    expect(r.status).toBe('ok');
    return r.target_file_id;
  }

  /** The disk holds the target's text, status says so, and read_file reads it. */
  async function inSync(path: string, id: string, text: string): Promise<void> {
    const t = await target(id);
    expect(t.current_content).toBe(text);
    expect(disk(path)).toBe(text);
    expect(await status(path)).toMatchObject({ path, target_file_id: id, state: 'in_sync', version: t.version, disk_version: t.version });
    const read = await call('read_file', { path });
    expect(read).toEqual({ status: 'ok', path, content: text, truncated: false, totalLines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) });
  }

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-one-truth-');
    ctx = h.ctx;
  });
  afterAll(() => h.dispose());

  it('palimpsest_submit_edits, _operations and _replacement publish an acceptance before they answer', async () => {
    const id = await bound('direct.md', 'one two three\n');
    const edits = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', edits: [{ match: 'two', replace: 'TWO' }], expected_target_version: 0 });
    expect(edits).toMatchObject({ status: 'accepted', version: 1, workspace_sync: { synced_path: 'direct.md', publication: 'installed', journal: { state: 'committed' } } });
    await inSync('direct.md', id, 'one TWO three\n');
    const ops = await call('palimpsest_submit_operations', { target_file_id: id, intent: 'o', operations: [{ op: 'match', match: 'three', replace: '3' }], expected_target_version: 1 });
    expect(ops).toMatchObject({ status: 'accepted', version: 2 });
    await inSync('direct.md', id, 'one TWO 3\n');
    const whole = await call('palimpsest_submit_replacement', { target_file_id: id, intent: 'r', replacement: 'all new\r\n', expected_target_version: 2 });
    expect(whole).toMatchObject({ status: 'accepted', version: 3 });
    await inSync('direct.md', id, 'all new\n');
    // A recorded rejection writes nothing and publishes nothing.
    const rejected = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', edits: [{ match: 'absent', replace: 'y' }], expected_target_version: 3 });
    expect(rejected).toMatchObject({ status: 'rejected', failure_reason: 'match_absent' });
    await inSync('direct.md', id, 'all new\n');
    // A resend of a recorded acceptance (same key) answers it again and publishes nothing more.
    const keyed = { target_file_id: id, intent: 'k', edits: [{ match: 'new', replace: 'NEW' }], expected_target_version: 3, client_request_id: 'one-truth-key' };
    const first = await call('palimpsest_submit_edits', keyed);
    expect(await call('palimpsest_submit_edits', keyed)).toMatchObject({ status: 'accepted', deduplicated: true, attempt_id: first.attempt_id });
    await inSync('direct.md', id, 'all NEW\n');
    expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', materialized_state_matches: true });
  });

  it('concurrent submissions on one bound file: one lands, the others are answered, and the disk ends equal to the target', async () => {
    const id = await bound('race.md', 'slot\n');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call('palimpsest_submit_edits', { target_file_id: id, intent: `race ${i}`, edits: [{ match: 'slot', replace: `slot ${i}` }], expected_target_version: 0 })),
    );
    const outcomes = answers.map((a) => (a.status === 'accepted' ? 'accepted' : a.failure_reason));
    expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(1);
    for (const o of outcomes) expect(['accepted', 'target_version_mismatch', 'workspace_busy']).toContain(o);
    const t = await target(id);
    expect(t.version).toBe(1);
    await inSync('race.md', id, t.current_content);
  });

  it('keeps the file\'s line endings when it publishes', async () => {
    const id = await bound('crlf.txt', 'a\r\nb\r\n');
    expect(await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', edits: [{ match: 'b', replace: 'B' }], expected_target_version: 0 })).toMatchObject({ status: 'accepted', workspace_sync: { content_eol: 'crlf' } });
    expect(disk('crlf.txt')).toBe('a\r\nB\r\n');
    expect(await status('crlf.txt')).toMatchObject({ state: 'in_sync', version: 1, disk_version: 1 });
    expect((await call('read_file', { path: 'crlf.txt' })).content).toBe('a\r\nB\r\n');
  });

  it('palimpsest_submit_observed_operations publishes, single form and batch form', async () => {
    const id = await bound('mod.ts', SOURCE);
    const head = async () => {
      const t = await target(id);
      return { expected_target_version: t.version, expected_current_hash: t.current_hash };
    };
    const single = await call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'alpha', kind: 'function' });
    expect(single.status).toBe('observed');
    const one = await call('palimpsest_submit_observed_operations', { target_file_id: id, intent: 's', observation_id: single.observation_id, operations: [{ op: 'match', match: 'x + 1', replace: 'x + 2' }], ...(await head()) });
    expect(one).toMatchObject({ status: 'accepted', version: 1, workspace_sync: { synced_path: 'mod.ts' } });
    await inSync('mod.ts', id, SOURCE.replace('x + 1', 'x + 2'));
    const bundle = await call('palimpsest_observe_scope', { target_file_id: id, selections: [{ symbol_name: 'alpha' }, { symbol_name: 'beta' }] });
    expect(bundle.status).toBe('observed_batch');
    const batch = await call('palimpsest_submit_observed_operations', {
      target_file_id: id, intent: 'b', observation_bundle_id: bundle.bundle_id, client_request_id: 'one-truth-batch', ...(await head()),
      groups: [
        { observation_id: bundle.scopes[0].observation_id, operations: [{ op: 'match', match: 'number', replace: 'bigint' }] },
        { observation_id: bundle.scopes[1].observation_id, operations: [{ op: 'match', match: '2', replace: '22' }] },
      ],
    });
    expect(batch).toMatchObject({ status: 'accepted', version: 2, group_count: 2, workspace_sync: { synced_path: 'mod.ts' } });
    await inSync('mod.ts', id, SOURCE.replace('x + 1', 'x + 2').replace('number', 'bigint').replace('return 2', 'return 22'));
  });

  it('a candidate apply, edit_file and write_file publish too', async () => {
    const id = await bound('tools.md', 'alpha beta\n');
    const proposed = await call('palimpsest_change_propose', { request_id: `prop-${++n}`, base: [{ target_file_id: id, version: 0 }], operations: [{ kind: 'edit', target_file_id: id, match: 'beta', replace: 'BETA' }] });
    expect(proposed.status).toBe('ok');
    expect(await call('palimpsest_change_apply', { candidate: proposed.candidate.id, expected_candidate_version: 1, request_id: `apply-${n}` })).toMatchObject({ status: 'ok', receipt: { outcome: 'applied' } });
    await inSync('tools.md', id, 'alpha BETA\n');
    expect(await call('edit_file', { path: 'tools.md', oldString: 'alpha', newString: 'ALPHA' })).toMatchObject({ status: 'ok', target_file_id: id, version: 2 });
    await inSync('tools.md', id, 'ALPHA BETA\n');
    expect(await call('write_file', { path: 'tools.md', content: 'written\n' })).toMatchObject({ status: 'ok', target_file_id: id, version: 3 });
    await inSync('tools.md', id, 'written\n');
  });

  it('refuses an acceptance when the file changed outside Palimpsest: nothing written, nothing recorded, and the refresh it names clears it', async () => {
    const id = await bound('drift.md', 'base text\n');
    writeFileSync(join(h.dir, 'drift.md'), 'edited by hand\n');
    const refused = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', edits: [{ match: 'base', replace: 'BASE' }], expected_target_version: 0 });
    expect(refused).toMatchObject({
      status: 'rejected', failure_reason: 'external_disk_drift', retryable: 'after_refresh',
      next_actions: [{ operation: 'palimpsest_workspace_refresh', params: { target_file_id: id } }],
    });
    expect(disk('drift.md')).toBe('edited by hand\n');
    expect((await target(id)).version).toBe(0);
    expect((await call('palimpsest_get_attempt_log', { target_file_id: id })).entries).toHaveLength(0);
    expect(await status('drift.md')).toMatchObject({ state: 'drifted', version: 0, disk_version: 0 });
    expect((await call('read_file', { path: 'drift.md' })).content).toBe('edited by hand\n');

    const next = refused.next_actions[0];
    expect(await call(next.operation, next.params)).toMatchObject({ status: 'refreshed', version: 1 });
    expect(await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', edits: [{ match: 'hand', replace: 'HAND' }], expected_target_version: 1 })).toMatchObject({ status: 'accepted', version: 2 });
    await inSync('drift.md', id, 'edited by HAND\n');
  });

  it('under publish on_save the file waits for a save: status pending, read_file and grep answer from the target and say so', async () => {
    const id = await bound('later.md', 'first line\nsecond line\n', { publish: 'on_save' });
    expect((await target(id)).workspace).toMatchObject({ path: 'later.md', publish: 'on_save' });
    const accepted = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', edits: [{ match: 'second', replace: 'pending' }], expected_target_version: 0 });
    expect(accepted.status).toBe('accepted');
    expect(accepted.workspace_sync).toBeUndefined();
    expect(disk('later.md')).toBe('first line\nsecond line\n');
    expect(await status('later.md')).toMatchObject({ state: 'pending', version: 1, disk_version: 0, publish: 'on_save', journal: null });
    expect((await call('palimpsest_workspace_status', { state: 'pending' })).files.map((f: { path: string }) => f.path)).toContain('later.md');
    const pending = { path: 'later.md', target_file_id: id, version: 1, disk_version: 0 };
    expect(await call('read_file', { path: 'later.md' })).toEqual({ status: 'ok', path: 'later.md', content: 'first line\npending line\n', truncated: false, totalLines: 2, pending });
    expect(await call('grep', { pattern: 'pending|second' })).toMatchObject({ status: 'ok', matches: [{ path: 'later.md', line: 2, text: 'pending line' }], pending: [pending] });
    // edit_file matches what read_file showed, and publishes everything accepted before it.
    expect(await call('edit_file', { path: 'later.md', oldString: 'pending line', newString: 'edited line' })).toMatchObject({ status: 'ok', version: 2 });
    await inSync('later.md', id, 'first line\nedited line\n');

    expect(await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', edits: [{ match: 'first', replace: 'FIRST' }], expected_target_version: 2 })).toMatchObject({ status: 'accepted', version: 3 });
    expect(await status('later.md')).toMatchObject({ state: 'pending', version: 3, disk_version: 2 });
    // A save with sync_workspace omitted publishes a binding that waits for saves.
    expect(await call('palimpsest_save', { target_file_id: id, expected_target_version: 3 })).toMatchObject({ status: 'saved', workspace_sync: { synced_path: 'later.md' } });
    await inSync('later.md', id, 'FIRST line\nedited line\n');

    // A file edited by hand while its target is ahead is drifted, and read as on disk.
    expect(await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', edits: [{ match: 'edited', replace: 'EDITED' }], expected_target_version: 3 })).toMatchObject({ status: 'accepted' });
    writeFileSync(join(h.dir, 'later.md'), 'by hand\n');
    expect(await status('later.md')).toMatchObject({ state: 'drifted', version: 4, disk_version: 3 });
    expect(await call('read_file', { path: 'later.md' })).toEqual({ status: 'ok', path: 'later.md', content: 'by hand\n', truncated: false, totalLines: 1 });
  });

  it('PALIMPSEST_WORKSPACE_PUBLISH sets the default of new bindings; publish without from_workspace is refused', async () => {
    const deferred = appContext(h.testDb.db, { workspace: h.root, workspacePublish: 'on_save' });
    writeFileSync(join(h.dir, 'env.md'), 'env\n');
    const r = await call('palimpsest_initialize_target', { filename: 'env.md', from_workspace: true }, deferred);
    expect(r).toMatchObject({ status: 'ok', workspace: { path: 'env.md', publish: 'on_save' } });
    expect(await status('env.md')).toMatchObject({ publish: 'on_save', state: 'in_sync' });
    // The file tools bind with it too: a file created, and a file touched first by an edit.
    expect(await call('write_file', { path: 'created.md', content: 'c\n' }, deferred)).toMatchObject({ status: 'ok', created: true });
    writeFileSync(join(h.dir, 'touched.md'), 't\n');
    expect(await call('edit_file', { path: 'touched.md', oldString: 't', newString: 'T' }, deferred)).toMatchObject({ status: 'ok', bound_now: true });
    for (const path of ['created.md', 'touched.md']) expect(await status(path)).toMatchObject({ publish: 'on_save', state: 'in_sync' });
    expect(await call('palimpsest_initialize_target', { filename: 'x.md', content: 'x', publish: 'on_save' })).toMatchObject({ status: 'invalid_argument', code: 'publish_needs_workspace' });
  });

  it('a process that cannot reach the bound file refuses to accept a change to it, recording nothing', async () => {
    const id = await bound('reach.md', 'reach\n');
    const elsewhere = appContext(h.testDb.db, { workspace: null });
    const r = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', edits: [{ match: 'reach', replace: 'REACH' }], expected_target_version: 0 }, elsewhere);
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'workspace_not_configured', path: 'reach.md' });
    await inSync('reach.md', id, 'reach\n');
  });

  it('a rebuild of the read models ends where the live ones did (disk_version and publish included)', async () => {
    const before = (await h.testDb.db.query('SELECT target_id::text, disk_version, publish FROM workspace_files ORDER BY target_id')).rows;
    expect(await rebuildProjections(h.testDb.db)).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
    expect((await h.testDb.db.query('SELECT target_id::text, disk_version, publish FROM workspace_files ORDER BY target_id')).rows).toEqual(before);
  });
});
