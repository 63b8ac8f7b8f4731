import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { readModelDigests } from '@palimpsest/projections/rebuild/read-model-digest';
import { readStream } from '@palimpsest/store/read-stream';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe(`palimpsest_initialize_target from_workspace on ${describeBackend}`, () => {
  let testDb: TestDb;
  let dir: string;
  let root: WorkspaceRoot;
  let ctx: AppContext;
  const call = (name: string, args: unknown, c: AppContext = ctx) => dispatch(c, name, args) as Promise<Record<string, any>>;
  const countEvents = async () => Number((await testDb.db.query('SELECT count(*) AS n FROM events')).rows[0].n);

  beforeAll(async () => {
    testDb = await createTestDb();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-import-'));
    mkdirSync(join(dir, 'docs'));
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'lf.md'), 'one\ntwo\n');
    writeFileSync(join(dir, 'docs', 'crlf.md'), 'one\r\ntwo\r\n');
    writeFileSync(join(dir, 'astral.md'), 'smile 😀 𝄞\n');
    writeFileSync(join(dir, 'outside', 'secret.md'), 'secret\n');
    symlinkSync(join(dir, 'outside', 'secret.md'), join(dir, 'link.md'));
    writeFileSync(join(dir, 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    writeFileSync(join(dir, 'with-nul.md'), 'a\u0000b');
    root = openWorkspaceRoot(dir);
    ctx = appContext(testDb.db, { workspace: root });
  });
  afterAll(async () => {
    root.close();
    rmSync(dir, { recursive: true, force: true });
    await testDb.dispose();
  });

  it.each([
    ['lf.md', 'one\ntwo\n', { style: 'lf', lf: 2, crlf: 0, normalized: false }],
    ['docs/crlf.md', 'one\ntwo\n', { style: 'crlf', lf: 0, crlf: 2, normalized: true }],
    ['astral.md', 'smile 😀 𝄞\n', { style: 'lf', lf: 1, source_code_points: 10, normalized: false }],
  ])('imports %s: canonical text, the source line endings and byte hash, and a WorkspaceFileBound event', async (path, canonical, endings) => {
    const bytes = readFileSync(join(dir, path));
    const r = await call('palimpsest_initialize_target', { filename: path, from_workspace: true, content: null });
    expect(r).toMatchObject({
      status: 'ok', filename: path, version: 0, current_hash: sha256(canonical),
      source_line_endings: { ...endings, source_utf8_bytes: bytes.length, source_sha256: sha256(bytes) },
      workspace: { path, source_sha256: sha256(bytes) },
    });
    const stream = await readStream(testDb.db, `target-${r.target_file_id}`);
    expect(stream.map((e) => [e.type, e.schemaVersion, e.streamVersion])).toEqual([['TargetInitialized', 1, 1], ['WorkspaceFileBound', 1, 2]]);
    const file = statSync(join(dir, path), { bigint: true });
    expect(stream[1]!.data).toEqual({
      target_id: r.target_file_id, path, root_dev: root.dev, root_ino: root.ino,
      file_dev: file.dev.toString(), file_ino: file.ino.toString(), source_sha256: sha256(bytes),
      source_line_ending_style: endings.style, bound_at: stream[1]!.data.bound_at,
    });
    const got = await call('palimpsest_get_target', { target_file_id: r.target_file_id });
    expect(got).toMatchObject({ status: 'ok', current_content: canonical, workspace: { path, source_sha256: sha256(bytes) } });
    expect(await call('palimpsest_replay', { target_file_id: r.target_file_id })).toMatchObject({ status: 'success', materialized_state_matches: true });
  });

  it('keeps targets from content unbound', async () => {
    const r = await call('palimpsest_initialize_target', { filename: 'x.md', content: 'x\n' });
    expect(r).toMatchObject({ status: 'ok', workspace: null });
    expect((await call('palimpsest_get_target', { target_file_id: r.target_file_id })).workspace).toBeNull();
    expect((await readStream(testDb.db, `target-${r.target_file_id}`)).map((e) => e.type)).toEqual(['TargetInitialized']);
  });

  it('refuses content together with from_workspace, a symlink, a missing file, an escape and non-UTF-8 bytes, appending nothing', async () => {
    const before = await countEvents();
    const refusal = (filename: string, extra: object = {}) => call('palimpsest_initialize_target', { filename, from_workspace: true, ...extra });
    expect(await refusal('lf.md', { content: 'other' })).toMatchObject({ status: 'invalid_argument', code: 'content_conflicts_with_workspace', argument: 'content' });
    expect(await refusal('link.md')).toMatchObject({ status: 'invalid_argument', code: 'PATH_SYMLINK', argument: 'filename', failure_detail: expect.stringContaining('symbolic link') });
    expect(await refusal('missing.md')).toMatchObject({ status: 'not_found', code: 'PATH_NOT_FOUND', argument: 'filename' });
    expect(await refusal('../lf.md')).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
    expect(await refusal('docs')).toMatchObject({ status: 'invalid_argument', code: 'PATH_NOT_A_FILE' });
    expect(await refusal('latin1.md')).toMatchObject({ status: 'invalid_argument', code: 'invalid_text_encoding', argument: 'filename' });
    expect(await refusal('with-nul.md')).toMatchObject({ status: 'invalid_argument', code: 'invalid_text_encoding', argument: 'filename' });
    expect(await countEvents()).toBe(before);
  });

  it('answers workspace_not_configured without a workspace root', async () => {
    const bare = appContext(testDb.db, { workspace: null });
    expect(await call('palimpsest_initialize_target', { filename: 'lf.md', from_workspace: true }, bare)).toMatchObject({
      status: 'invalid_argument', code: 'workspace_not_configured', argument: 'from_workspace',
    });
  });

  it('projections rebuild reproduces the read models of imported targets, bindings included', async () => {
    const r = await call('palimpsest_initialize_target', { filename: 'docs/crlf.md', from_workspace: true });
    await call('palimpsest_submit_edits', { target_file_id: r.target_file_id, intent: 'a', expected_target_version: 0, edits: [{ match: 'two', replace: 'three' }] });
    expect(await call('palimpsest_replay', { target_file_id: r.target_file_id })).toMatchObject({ status: 'success', reconstructed_version: 1, materialized_state_matches: true });
    const before = await readModelDigests(testDb.db);
    const bound = await testDb.db.query('SELECT count(*) AS n FROM workspace_files');
    const report = await rebuildProjections(testDb.db);
    expect(report).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
    expect(await readModelDigests(testDb.db)).toEqual(before);
    expect((await testDb.db.query('SELECT count(*) AS n FROM workspace_files')).rows[0].n).toEqual(bound.rows[0].n);
    expect(Number(bound.rows[0].n)).toBe(4);
  });
});
