import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest as dispatch } from '../../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../../test-support/workspace-harness';
import { expectPublishedResult } from '../../file-tools/test-support/published-result';

describe(`file history, read_file as of a version and diffs on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = async (name: string, args: unknown) => (await dispatch(h.ctx, name, args)) as Record<string, any>;
  const put = (path: string, text: string) => writeFileSync(join(h.dir, path), text);
  /** The bytes the file held after each version, as read off the disk right after it was written. */
  const bytes: string[] = [];
  let id: string;

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-history-');
    put('notes.txt', 'one\r\ntwo\r\nthree\r\n');
    bytes.push(readFileSync(join(h.dir, 'notes.txt'), 'utf8'));
    for (let i = 0; i < 6; i++) {
      const r = await call('edit_file', { path: 'notes.txt', oldString: i === 0 ? 'two' : `two ${i - 1}`, newString: `two ${i}` });
      expect(r).toMatchObject({ status: 'ok', version: i + 1 });
      id = r.target_file_id;
      bytes.push(readFileSync(join(h.dir, 'notes.txt'), 'utf8'));
    }
    put('notes.txt', 'changed outside\r\n');
    const refreshed = await call('palimpsest_workspace_refresh', { target_file_id: id });
    expect(refreshed.status).toBe('refreshed');
    bytes.push('changed outside\r\n');
  });
  afterAll(() => h.dispose());

  it('lists the versions newest first with attempt, source, time and size, a page at a time', async () => {
    const first = await call('palimpsest_file_history', { path: 'notes.txt', limit: 3 });
    expect(first).toMatchObject({ status: 'ok', path: 'notes.txt', target_file_id: id, next_before_version: 5 });
    expect(first.versions.map((v: any) => [v.version, v.source])).toEqual([[7, 'external_disk'], [6, 'agent'], [5, 'agent']]);
    expect(first.versions[0].size).toBe('changed outside\n'.length);
    const second = await call('palimpsest_file_history', { path: 'notes.txt', limit: 3, before_version: first.next_before_version });
    expect(second.versions.map((v: any) => v.version)).toEqual([4, 3, 2]);
    const last = await call('palimpsest_file_history', { path: 'notes.txt', limit: 3, before_version: second.next_before_version });
    expect(last.versions.map((v: any) => [v.version, v.source, v.attempt_id])).toEqual([[1, 'agent', expect.any(String)], [0, 'created', null]]);
    expect(last.next_before_version).toBeNull();
    const all = [...first.versions, ...second.versions, ...last.versions];
    for (const v of all) {
      expect(v.size).toBe([...bytes[v.version]!.replace(/\r\n/g, '\n')].length);
      expect(Date.parse(v.written_at)).not.toBeNaN();
    }
    const refused = await call('palimpsest_file_history', { path: 'never-bound.txt' });
    expect(refused).toMatchObject({ status: 'invalid_argument', code: 'target_not_bound_to_workspace' });
  });

  it('reads the file as of every version, in the bytes it held then, with the version it read', async () => {
    for (let v = 0; v < bytes.length; v++) {
      const r = await call('read_file', { path: 'notes.txt', as_of: { version: v } });
      expectPublishedResult('read_file', r);
      expect(r).toMatchObject({ status: 'ok', path: 'notes.txt', content: bytes[v], truncated: false, as_of: { target_file_id: id, version: v } });
    }
    const paged = await call('read_file', { path: 'notes.txt', as_of: { version: 3 }, offset: 2, limit: 1 });
    expect(paged).toMatchObject({ content: 'two 2\r\n', truncated: true, totalLines: 3 });
    const now = await call('read_file', { path: 'notes.txt' });
    expect(now.content).toBe(bytes[bytes.length - 1]);
    expect(now.as_of).toBeUndefined();
  });

  it('diffs two versions with line and code-point positions and the attempts in between, bounded with a continuation', async () => {
    const d = await call('palimpsest_diff_versions', { target_file_id: id, from: { version: 0 }, to: { version: 3 } });
    expect(d).toMatchObject({ status: 'ok', from: { version: 0 }, to: { version: 3 }, total_hunks: 1, next_hunk: null, truncated: false });
    expect(d.hunks[0]).toMatchObject({ header: '@@ -1,3 +1,3 @@', old_start: 0, old_end: 14, new_start: 0, new_end: 16 });
    expect(d.hunks[0].lines).toEqual([' one', '-two', '+two 2', ' three']);
    expect(d.attempts.map((a: any) => a.after_version)).toEqual([1, 2, 3]);
    const pagedAttempts = await call('palimpsest_diff_versions', { target_file_id: id, from: { version: 0 }, to: { version: 3 }, attempts_limit: 2 });
    expect(pagedAttempts.attempts.map((a: any) => a.after_version)).toEqual([1, 2]);
    const rest = await call('palimpsest_diff_versions', { target_file_id: id, from: { version: 0 }, to: { version: 3 }, attempts_limit: 2, after_sequence: pagedAttempts.attempts_next });
    expect(rest.attempts.map((a: any) => a.after_version)).toEqual([3]);
    expect(rest.attempts_next).toBeNull();
    const toNow = await call('palimpsest_diff_versions', { target_file_id: id, from: { version: 6 } });
    expect(toNow.to.version).toBe(7);
    expect(toNow.hunks[0].lines).toEqual(['-one', '-two 5', '-three', '+changed outside']);
  });

  it('pages a diff of many hunks, at least one hunk a page, until next_hunk is null', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}`);
    const target = await call('palimpsest_initialize_target', { filename: 'many.txt', content: lines.join('\n') + '\n' });
    const changed = lines.map((l, i) => (i % 20 === 0 ? `${l} changed` : l));
    const r = await call('palimpsest_submit_replacement', { target_file_id: target.target_file_id, intent: 'many', expected_target_version: 0, replacement: changed.join('\n') + '\n' });
    expect(r.status).toBe('accepted');
    const seen: string[][] = [];
    let start: number | null = 0;
    let pages = 0;
    while (start !== null) {
      const page: Record<string, any> = await call('palimpsest_diff_versions', { target_file_id: target.target_file_id, from: { version: 0 }, start_hunk: start, max_chars: 60 });
      expect(page.hunks.length).toBeGreaterThanOrEqual(1);
      expect(page.total_hunks).toBe(10);
      seen.push(...page.hunks.map((x: any) => x.lines));
      start = page.next_hunk;
      pages++;
    }
    expect(seen).toHaveLength(10);
    expect(pages).toBeGreaterThan(1);
    const text = (await call('palimpsest_get_target', { target_file_id: target.target_file_id, as_of: { version: 0 } })).current_content as string;
    const whole = await call('palimpsest_diff_versions', { target_file_id: target.target_file_id, from: { version: 0 }, max_chars: 100000 });
    for (const hunk of whole.hunks) {
      const oldSpan = [...text].slice(hunk.old_start, hunk.old_end).join('');
      expect(oldSpan).toBe(hunk.lines.filter((l: string) => !l.startsWith('+')).map((l: string) => l.slice(1) + '\n').join(''));
    }
  });

  it('answers every bound file as of a position, the same whatever was written after it', async () => {
    const history = await call('palimpsest_file_history', { path: 'notes.txt', limit: 200 });
    const v3 = history.versions.find((v: any) => v.version === 3);
    put('other.txt', 'other\n');
    await call('edit_file', { path: 'other.txt', oldString: 'other', newString: 'other 1' });
    const at = await call('palimpsest_workspace_as_of', { as_of: { position: v3.log_sequence } });
    expect(at).toMatchObject({ status: 'ok', files: [{ path: 'notes.txt', target_file_id: id, version: 3, after_hash: v3.after_hash }], next_cursor: null });
    const later = await call('palimpsest_workspace_as_of', { as_of: { time: new Date(Date.now() + 60_000).toISOString() }, limit: 1 });
    expect(later.files).toMatchObject([{ path: 'notes.txt', version: 7 }]);
    const next = await call('palimpsest_workspace_as_of', { as_of: { time: new Date(Date.now() + 60_000).toISOString() }, cursor: later.next_cursor });
    expect(next.files).toMatchObject([{ path: 'other.txt', version: 1 }]);
    const byVersion = await call('palimpsest_workspace_as_of', { as_of: { version: 1 } });
    expect(byVersion.status).toBe('invalid_argument');
  });
});
