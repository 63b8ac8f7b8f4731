import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { ANSWER_SCHEMAS } from '@palimpsest/protocol/catalog/answer-schemas';
import { operationSpec } from '@palimpsest/protocol/catalog/catalog';
import { parsePolicy } from '@palimpsest/core/policy/owner-policy';
import { describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { type AppContext } from '../app-context';
import { dispatchRequest as dispatch, type DispatchOptions } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
const validators = {
  edit_file: { result: ajv.compile(operationSpec('edit_file').result), ok: ajv.compile(ANSWER_SCHEMAS.edit_file) },
  write_file: { result: ajv.compile(operationSpec('write_file').result), ok: ajv.compile(ANSWER_SCHEMAS.write_file) },
};

describe(`edit_file and write_file on ${describeBackend}`, () => {
  let testDb: TestDb;
  let dir: string;
  let root: WorkspaceRoot;
  let ctx: AppContext;
  const raw = (name: string, args: unknown, opts?: DispatchOptions) => dispatch(ctx, name, args, opts) as Promise<Record<string, any>>;
  /** Every answer validates against the published result schema (and an ok one against its answer schema). */
  async function tool(name: 'edit_file' | 'write_file', args: unknown, opts?: DispatchOptions) {
    const r = await raw(name, args, opts);
    expect(validators[name].result(r)).toBe(true);
    if (r.status === 'ok') expect(validators[name].ok(r) ? null : validators[name].ok.errors).toBeNull();
    return r;
  }
  const file = (path: string) => readFileSync(join(dir, path));
  const put = (path: string, text: string) => writeFileSync(join(dir, path), text);
  const stray = () => readdirSync(dir).filter((n) => n.startsWith('.palimpsest-'));
  /** The target's replayed text exported in the recorded style equals the file's bytes. */
  async function replayedEqualsDisk(id: string, path: string) {
    const replay = await raw('palimpsest_replay', { target_file_id: id });
    expect(replay).toMatchObject({ status: 'success', materialized_state_matches: true });
    const exported = await raw('palimpsest_export_target', { target_file_id: id, format: 'original_eol' });
    const lf = await raw('palimpsest_read_target', { target_file_id: id });
    expect(replay.reconstructed_hash).toBe(lf.current_hash);
    expect(Buffer.from(exported.content, 'utf8').equals(file(path))).toBe(true);
  }

  let harness: WorkspaceHarness;
  beforeAll(async () => {
    harness = await createWorkspaceHarness('palimpsest-ftools-');
    ({ testDb, dir, root, ctx } = harness);
  });
  afterAll(() => harness.dispose());

  it('edits the one match, answers a unified diff, and records it in the attempt log, the ledger and replay', async () => {
    put('one.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const r = await tool('edit_file', { path: 'one.ts', oldString: 'const b = 2;', newString: 'const b = 20;' });
    expect(r).toMatchObject({ status: 'ok', path: 'one.ts', replacements: 1, version: 1, bound_now: true, journal: { state: 'committed' } });
    expect(r.diff).toContain('@@ -1,3 +1,3 @@');
    expect(r.diff).toContain('-const b = 2;\n+const b = 20;');
    expect(file('one.ts').toString()).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
    expect(r.disk_sha256).toBe(sha256(file('one.ts')));
    const log = await raw('palimpsest_get_attempt_log', { target_file_id: r.target_file_id });
    expect(log.entries.map((a: any) => a.attempt_id)).toContain(r.attempt_id);
    const ledger = await raw('palimpsest_get_manifest_ledger', { target_file_id: r.target_file_id });
    expect(JSON.stringify(ledger)).toContain(r.attempt_id);
    await replayedEqualsDisk(r.target_file_id, 'one.ts');
    expect(stray()).toEqual([]);
  });

  it.each([
    ['absent', 'nothing here', 0],
    ['ambiguous', 'x = 1', 3],
  ])('refuses an %s oldString as a recorded rejection naming every match line, the file untouched', async (_kind, oldString, count) => {
    const text = 'let x = 1;\nlet y = 2;\nlet x = 1;\n\nlet x = 1;\n';
    put(`m${count}.ts`, text);
    const r = await tool('edit_file', { path: `m${count}.ts`, oldString, newString: 'z' });
    expect(r).toMatchObject({ status: 'rejected', failure_reason: count ? 'match_ambiguous' : 'match_absent', match_count: count, path: `m${count}.ts` });
    expect(r.match_lines).toEqual(count ? [1, 3, 5] : undefined);
    expect(r.next_actions[0]).toMatchObject({ operation: count ? 'edit_file' : 'read_file', params: { path: `m${count}.ts` } });
    expect(file(`m${count}.ts`).toString()).toBe(text);
    const log = await raw('palimpsest_get_attempt_log', { target_file_id: r.target_file_id });
    expect(log.entries.find((a: any) => a.attempt_id === r.attempt_id)).toMatchObject({ status: 'rejected' });
  });

  it('offers near misses for a mistyped oldString', async () => {
    put('near.md', 'The quick brown fox jumps over the lazy dog.\n');
    const r = await tool('edit_file', { path: 'near.md', oldString: 'quick brwn fox', newString: 'slow fox' });
    expect(r.status).toBe('rejected');
    expect(JSON.stringify(r.near_misses)).toContain('quick brown fox');
  });

  it.each([['\r\n'], ['\n']])('edits a CRLF file with oldString sent with %j and writes it back as CRLF, astral characters around the edit', async (eol) => {
    const name = `crlf${eol.length}.txt`;
    put(name, 'alpha 😀\r\nbeta 𝄞\r\ngamma\r\n');
    const r = await tool('edit_file', { path: name, oldString: `😀${eol}beta 𝄞`, newString: `😀${eol}BETA 𝄞🎉` });
    expect(r).toMatchObject({ status: 'ok', content_eol: 'crlf' });
    expect(file(name).toString()).toBe('alpha 😀\r\nBETA 𝄞🎉\r\ngamma\r\n');
    await replayedEqualsDisk(r.target_file_id, name);
  });

  it('writes a file with mixed line endings back with LF throughout, and says so (per-line endings are not kept)', async () => {
    put('mixed.txt', 'one\r\ntwo\nthree\r\n');
    const r = await tool('edit_file', { path: 'mixed.txt', oldString: 'two', newString: 'TWO' });
    expect(r).toMatchObject({ status: 'ok', content_eol: 'lf' });
    expect(file('mixed.txt').toString()).toBe('one\nTWO\nthree\n');
    const status = await raw('palimpsest_workspace_status', { path_prefix: 'mixed.txt' });
    expect(status.files).toMatchObject([{ path: 'mixed.txt', state: 'in_sync' }]);
  });

  it('takes a change made outside Palimpsest in first (source external_disk), then edits', async () => {
    put('ext.md', 'one\ntwo\n');
    const first = await tool('edit_file', { path: 'ext.md', oldString: 'one', newString: 'ONE' });
    put('ext.md', 'ONE\ntwo\nthree\n');
    const r = await tool('edit_file', { path: 'ext.md', oldString: 'three', newString: 'THREE' });
    expect(r).toMatchObject({ status: 'ok', target_file_id: first.target_file_id, version: 3, bound_now: false });
    expect(typeof r.external_attempt_id).toBe('string');
    const log = await raw('palimpsest_get_attempt_log', { target_file_id: r.target_file_id });
    const external = log.entries.find((a: any) => a.attempt_id === r.external_attempt_id);
    expect(external).toMatchObject({ status: 'accepted', source: 'external_disk' });
    expect(file('ext.md').toString()).toBe('ONE\ntwo\nTHREE\n');
    await replayedEqualsDisk(r.target_file_id, 'ext.md');
  });

  it('never overwrites a file changed on disk between the read and the install', async () => {
    put('race.md', 'a\nb\n');
    await tool('edit_file', { path: 'race.md', oldString: 'a', newString: 'A' });
    const foreign = 'someone else\n';
    const original = ctx.leases.tryAcquire.bind(ctx.leases);
    // The change lands after the tool read the file and decided, just before the journal takes the lease.
    ctx.leases.tryAcquire = async (keys) => {
      put('race.md', foreign);
      ctx.leases.tryAcquire = original;
      return original(keys);
    };
    const r = await tool('edit_file', { path: 'race.md', oldString: 'b', newString: 'B' });
    expect(r).toMatchObject({ status: 'rejected', failure_reason: 'external_disk_drift', next_actions: [{ operation: 'read_file' }] });
    expect(file('race.md').toString()).toBe(foreign);
    const log = await raw('palimpsest_get_attempt_log', { target_file_id: r.target_file_id });
    expect(log.entries.filter((a: any) => a.status === 'accepted')).toHaveLength(1); // no accepted edit left behind
    expect(stray()).toEqual([]);
  });

  it('write_file creates a new file with its missing parents, modes from the umask, and a target bound to it', async () => {
    const umask = process.umask(0o027);
    let r: Record<string, any>;
    try {
      r = await tool('write_file', { path: 'deep/er/new.txt', content: 'fresh 😀\n' });
    } finally {
      process.umask(umask);
    }
    expect(r).toMatchObject({ status: 'ok', path: 'deep/er/new.txt', created: true, bytesWritten: Buffer.byteLength('fresh 😀\n'), attempt_id: null, version: 0 });
    expect(statSync(join(dir, 'deep/er/new.txt')).mode & 0o777).toBe(0o640);
    expect(statSync(join(dir, 'deep')).mode & 0o777).toBe(0o750);
    expect(statSync(join(dir, 'deep/er')).mode & 0o777).toBe(0o750);
    const target = await raw('palimpsest_get_target', { target_file_id: r.target_file_id });
    expect(target.workspace).toEqual({ path: 'deep/er/new.txt', source_sha256: sha256(file('deep/er/new.txt')), publish: 'on_accept' });
    const again = await tool('edit_file', { path: 'deep/er/new.txt', oldString: 'fresh', newString: 'edited' });
    expect(again).toMatchObject({ status: 'ok', target_file_id: r.target_file_id, bound_now: false });
    await replayedEqualsDisk(r.target_file_id, 'deep/er/new.txt');
  });

  it('write_file replaces an existing file whole, keeping its mode and line endings', async () => {
    put('old.txt', 'x\r\ny\r\n');
    chmodSync(join(dir, 'old.txt'), 0o640);
    const r = await tool('write_file', { path: 'old.txt', content: 'new\nlines\n' });
    expect(r).toMatchObject({ status: 'ok', created: false, bytesWritten: 12, content_eol: 'crlf' });
    expect(file('old.txt').toString()).toBe('new\r\nlines\r\n');
    expect(statSync(join(dir, 'old.txt')).mode & 0o777).toBe(0o640);
    await replayedEqualsDisk(r.target_file_id, 'old.txt');
  });

  it('write_file keeps a file that appears between the check and the create (no clobber)', async () => {
    const original = ctx.leases.tryAcquire.bind(ctx.leases);
    ctx.leases.tryAcquire = async (keys) => {
      put('appeared.txt', 'theirs\n');
      ctx.leases.tryAcquire = original;
      return original(keys);
    };
    const r = await tool('write_file', { path: 'appeared.txt', content: 'mine\n' });
    expect(r).toMatchObject({ status: 'rejected', failure_reason: 'external_disk_drift' });
    expect(file('appeared.txt').toString()).toBe('theirs\n');
    expect(stray()).toEqual([]);
  });

  it('refuses paths outside the project', async () => {
    expect(await tool('write_file', { path: '../out.txt', content: 'x' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
    expect(await tool('edit_file', { path: 'missing.txt', oldString: 'a', newString: 'b' })).toMatchObject({ status: 'not_found', code: 'PATH_NOT_FOUND' });
  });

  it('read_only refuses both, FORBIDDEN; hidden tools are refused', async () => {
    put('ro.txt', 'keep\n');
    const ro = parsePolicy({ mode: 'read_only' }, 'ro');
    const hidden = parsePolicy({ mode: 'allow_all', tools: ['palimpsest_get_target'] }, 'narrow');
    if (!ro.ok || !hidden.ok) throw new Error('policy');
    for (const [name, args] of [['edit_file', { path: 'ro.txt', oldString: 'keep', newString: 'x' }], ['write_file', { path: 'ro.txt', content: 'x' }]] as const) {
      expect(await tool(name, args, { policy: ro.value })).toMatchObject({ status: 'invalid_argument', code: 'operation_not_permitted', answer: 'FORBIDDEN' });
      expect(await tool(name, args, { readOnly: true })).toMatchObject({ status: 'invalid_argument', code: 'operation_not_permitted', answer: 'FORBIDDEN' });
      expect(await tool(name, args, { policy: hidden.value })).toMatchObject({ status: 'invalid_argument', code: 'operation_not_permitted', answer: 'FORBIDDEN' });
    }
    expect(file('ro.txt').toString()).toBe('keep\n');
  });
});
