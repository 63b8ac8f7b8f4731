import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { readStream } from '@palimpsest/store/read-stream';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';

const fixtures = join(__dirname, '..', '..', '..', 'structure', 'src', 'test-support', 'fixtures');
const fixture = (name: string) => readFileSync(join(fixtures, name), 'utf8');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const cps = (text: string) => [...text];

describe(`palimpsest_observe_scope on ${describeBackend}`, () => {
  let testDb: TestDb;
  let ctx: AppContext;
  const ids: Record<string, string> = {};
  const call = (name: string, args: unknown) => dispatch(ctx, name, args) as Promise<Record<string, any>>;
  const observe = (args: Record<string, unknown>) => call('palimpsest_observe_scope', args);

  beforeAll(async () => {
    testDb = await createTestDb();
    ctx = appContext(testDb.db, { workspace: null });
    for (const [name, type] of [['sample.ts', 'text/typescript'], ['sample.py', 'text/x-python'], ['guide.md', 'text/markdown'], ['config.yaml', 'application/yaml'], ['settings.json', 'application/json']]) {
      ids[name] = (await call('palimpsest_initialize_target', { filename: name, content: fixture(name), content_type: type })).target_file_id;
    }
    ids['notes.txt'] = (await call('palimpsest_initialize_target', { filename: 'notes.txt', content: 'plain\n', content_type: 'text/plain' })).target_file_id;
  });
  afterAll(() => testDb.dispose());

  it('discovers candidates without recording anything', async () => {
    const before = (await readStream(testDb.db, `target-${ids['sample.ts']}`)).length;
    const found = await observe({ target_file_id: ids['sample.ts'], query: 'GREET' });
    expect(found).toMatchObject({ status: 'candidates', observation_id: null, target_version: 0, language: 'typescript', total_candidates: 5, candidates_truncated: false });
    expect(found.engine).toBe('palimpsest-structure@2 web-tree-sitter@0.27.2 tree-sitter-typescript@0.23.2');
    // exact names first, then prefixes of the name or parent.name, in document order within each
    expect(found.candidates.map((c: any) => [c.name, c.kind, c.parent])).toEqual([
      ['greet', 'function', null], ['greet', 'method', 'Greeter'], ['Greeter', 'class', null], ['count', 'variable', 'Greeter'], ['create', 'method', 'Greeter'],
    ]);
    const methods = await observe({ target_file_id: ids['sample.ts'], kind: 'method' });
    expect(methods.candidates.map((c: any) => c.name)).toEqual(['greet', 'create']);
    expect((await readStream(testDb.db, `target-${ids['sample.ts']}`)).length).toBe(before);
  });

  it('exact selection: one match is observed and recorded with its version, hash, bounds and engine', async () => {
    const text = fixture('sample.ts');
    const got = await observe({ target_file_id: ids['sample.ts'], symbol_name: 'Greeter.greet' });
    expect(got).toMatchObject({ status: 'observed', target_version: 0, target_current_hash: sha256(text), symbol: { name: 'greet', kind: 'method', parent: 'Greeter' }, offset: 0, truncated: false, next_offset: null });
    const scope = cps(text).slice(got.scope_start, got.scope_end).join('');
    expect(got.text).toBe(scope);
    expect(got.observed_scope_hash).toBe(sha256(scope));
    const { rows } = await testDb.db.query('SELECT * FROM scope_observations WHERE observation_id = $1', [got.observation_id]);
    expect(rows[0]).toMatchObject({ target_hash: sha256(text), scope_start: got.scope_start, scope_end: got.scope_end, engine: got.engine, selector_name: 'Greeter.greet', bundle_id: null });
    const events = await readStream(testDb.db, `target-${ids['sample.ts']}`);
    expect(events[events.length - 1]).toMatchObject({ type: 'ScopeObserved', data: { observation_id: got.observation_id, editing_cycle_id: got.editing_cycle_id } });
  });

  it('exact selection: not_found and ambiguous (never the smallest), with kind narrowing', async () => {
    expect(await observe({ target_file_id: ids['sample.ts'], symbol_name: 'nope' })).toMatchObject({ status: 'not_found', code: 'SCOPE_NOT_FOUND', observation_id: null });
    const amb = await observe({ target_file_id: ids['sample.ts'], symbol_name: 'greet' });
    expect(amb).toMatchObject({ status: 'ambiguous', code: 'AMBIGUOUS_SCOPE_SELECTION', observation_id: null, total_candidates: 2, candidates_truncated: false });
    expect(await observe({ target_file_id: ids['sample.ts'], symbol_name: 'greet', kind: 'function' })).toMatchObject({ status: 'observed' });
  });

  it('Markdown duplicate headings are ambiguous until named by parent.name; Python, YAML and JSON select by path', async () => {
    const md = await observe({ target_file_id: ids['guide.md'], symbol_name: 'Install' });
    expect(md).toMatchObject({ status: 'ambiguous', total_candidates: 3 });
    const appendix = await observe({ target_file_id: ids['guide.md'], symbol_name: 'Appendix.Install', kind: 'section' });
    expect(appendix).toMatchObject({ status: 'observed', text: '## Install\n\nThird install.' });
    const punct = await observe({ target_file_id: ids['guide.md'], symbol_name: 'Usage: basics!' });
    expect(punct.text.startsWith('## Usage: basics!')).toBe(true);
    expect(await observe({ target_file_id: ids['sample.py'], symbol_name: 'Greeter.Inner.run' })).toMatchObject({ status: 'observed', text: 'def run(self):\n            pass' });
    expect(await observe({ target_file_id: ids['config.yaml'], symbol_name: 'server.tls.enabled' })).toMatchObject({ status: 'observed', text: 'enabled: true' });
    expect(await observe({ target_file_id: ids['settings.json'], symbol_name: 'server.port', kind: 'config_item' })).toMatchObject({ status: 'observed', text: '"port": 8080' });
  });

  it('refuses blank selectors, mixed modes, unknown languages and targets', async () => {
    expect(await observe({ target_file_id: ids['sample.ts'], query: '' })).toMatchObject({ status: 'invalid_argument' });
    expect(await observe({ target_file_id: ids['sample.ts'], symbol_name: '\u2003\t' })).toMatchObject({ status: 'invalid_argument', code: 'blank_selector', argument: 'symbol_name' });
    expect(await observe({ target_file_id: ids['sample.ts'], query: ' \u00a0' })).toMatchObject({ code: 'blank_selector', argument: 'query' });
    expect(await observe({ target_file_id: ids['sample.ts'], selections: [{ symbol_name: 'greet' }, { symbol_name: ' ' }] })).toMatchObject({ code: 'blank_selector', selection_index: 1 });
    expect(await observe({ target_file_id: ids['sample.ts'], symbol_name: 'greet', query: 'g' })).toMatchObject({ code: 'conflicting_selectors' });
    expect(await observe({ target_file_id: ids['sample.ts'], selections: [{ symbol_name: 'banner' }], kind: 'function' })).toMatchObject({ code: 'conflicting_selectors' });
    expect(await observe({ target_file_id: ids['sample.ts'], selections: [{ symbol_name: 'banner' }], offset: 3 })).toMatchObject({ code: 'conflicting_selectors' });
    expect(await observe({ target_file_id: ids['notes.txt'], query: 'x' })).toMatchObject({ status: 'unsupported', code: 'UNSUPPORTED_LANGUAGE' });
    expect(await observe({ target_file_id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ status: 'not_found', code: 'target_not_found' });
  });

  it('pages a large scope by observation_id, with line starts, until a save or an edit closes it', async () => {
    const lines = Array.from({ length: 900 }, (_, i) => `  const v${i} = '😀${i}';`);
    const text = `export function big(): void {\n${lines.join('\n')}\n}\n`;
    const id = (await call('palimpsest_initialize_target', { filename: 'big.ts', content: text })).target_file_id;
    const first = await observe({ target_file_id: id, symbol_name: 'big', max_chars: 100000 });
    expect(first).toMatchObject({ status: 'observed', max_chars: 8000, truncated: true, next_offset: 8000, offset: 0 });
    const scope = cps(text).slice(first.scope_start, first.scope_end).join('');
    let offset = first.next_offset;
    let assembled = first.text;
    while (offset !== null) {
      const page = await observe({ target_file_id: id, observation_id: first.observation_id.toUpperCase(), offset, include_line_starts: true });
      expect(page).toMatchObject({ status: 'scope_page', mode: 'scope_page', max_chars: 4000, observed_scope_hash: first.observed_scope_hash });
      expect(page.line_starts[0].start).toBeGreaterThanOrEqual(page.start);
      assembled += page.text;
      offset = page.next_offset;
    }
    expect(assembled).toBe(scope);
    expect(await observe({ target_file_id: id, observation_id: first.observation_id, offset: first.scope_length })).toMatchObject({ code: 'offset_out_of_range' });
    expect(await observe({ target_file_id: id, observation_id: 'not-a-uuid' })).toMatchObject({ status: 'invalid_argument', code: 'INVALID_OBSERVATION_ID' });
    expect(await observe({ target_file_id: id, observation_id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ status: 'not_found', code: 'UNKNOWN_OBSERVATION_ID' });
    expect(await observe({ target_file_id: ids['sample.ts'], observation_id: first.observation_id })).toMatchObject({ status: 'rejected', code: 'OBSERVATION_TARGET_MISMATCH' });
    const saved = await call('palimpsest_save', { target_file_id: id });
    expect(saved.status).toBe('saved');
    expect(await observe({ target_file_id: id, observation_id: first.observation_id })).toMatchObject({ status: 'rejected', code: 'OBSERVATION_CYCLE_MISMATCH', current_version: 0, observed_version: 0 });
    const again = await observe({ target_file_id: id, symbol_name: 'big' });
    const edit = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'rename', edits: [{ match: 'v0 =', replace: 'w0 =' }], expected_target_version: 0 });
    expect(edit.status).toBe('accepted');
    expect(await observe({ target_file_id: id, observation_id: again.observation_id })).toMatchObject({ status: 'rejected', code: 'STALE_OBSERVATION_VERSION', current_version: 1 });
  });

  it('a stale hash at the same version is STALE_OBSERVATION_HASH', async () => {
    const got = await observe({ target_file_id: ids['config.yaml'], symbol_name: 'database' });
    await testDb.db.query('UPDATE scope_observations SET target_hash = $2 WHERE observation_id = $1', [got.observation_id, '0'.repeat(64)]);
    expect(await observe({ target_file_id: ids['config.yaml'], observation_id: got.observation_id })).toMatchObject({ status: 'rejected', code: 'STALE_OBSERVATION_HASH' });
    await testDb.db.query('UPDATE scope_observations SET target_hash = $2 WHERE observation_id = $1', [got.observation_id, got.target_current_hash]);
  });

  it('bundles: ordered receipts from one snapshot, all or nothing, failures naming selection_index', async () => {
    const id = ids['guide.md'];
    const batch = await observe({ target_file_id: id, selections: [{ symbol_name: 'Appendix.Install' }, { symbol_name: 'Guide 😀.Install', kind: 'section' }] });
    expect(batch).toMatchObject({ status: 'observed_batch', scope_count: 2, target_version: 0 });
    expect(batch.scopes.map((s: any) => [s.ordinal, s.symbol.parent])).toEqual([[1, 'Appendix'], [2, 'Guide 😀']]);
    const { rows } = await testDb.db.query('SELECT ordinal, observation_id::text AS id FROM scope_observations WHERE bundle_id = $1 ORDER BY ordinal', [batch.bundle_id]);
    expect(rows.map((r: any) => r.id)).toEqual(batch.scopes.map((s: any) => s.observation_id));
    const page = await observe({ target_file_id: id, observation_id: batch.scopes[1].observation_id });
    expect(page).toMatchObject({ status: 'scope_page', bundle_id: batch.bundle_id, ordinal: 2 });
    const before = (await testDb.db.query('SELECT count(*)::int AS n FROM scope_observations')).rows[0].n;
    expect(await observe({ target_file_id: id, selections: [{ symbol_name: 'Appendix' }, { symbol_name: 'nope' }] })).toMatchObject({ status: 'not_found', code: 'SCOPE_NOT_FOUND', selection_index: 1 });
    expect(await observe({ target_file_id: id, selections: [{ symbol_name: 'Install' }] })).toMatchObject({ status: 'ambiguous', code: 'AMBIGUOUS_SCOPE_SELECTION', selection_index: 0, total_candidates: 3 });
    expect(await observe({ target_file_id: id, selections: [{ symbol_name: 'Appendix' }, { symbol_name: 'Appendix' }] })).toMatchObject({ status: 'rejected', code: 'DUPLICATE_SCOPE_SELECTION', selection_index: 1 });
    expect(await observe({ target_file_id: id, selections: [{ symbol_name: 'Appendix' }, { symbol_name: 'Appendix.Install' }] })).toMatchObject({ status: 'rejected', code: 'OVERLAPPING_SCOPE_SELECTION', selection_index: 1 });
    expect((await testDb.db.query('SELECT count(*)::int AS n FROM scope_observations')).rows[0].n).toBe(before);
  });

  it('bundle caps: 65,536 code points of scopes, 32,768 of first pages (BUNDLE_RESPONSE_TOO_LARGE)', async () => {
    const sections = (n: number, size: number) => Array.from({ length: n }, (_, i) => `# S${i}\n\n${'😀'.repeat(size)}\n`).join('\n');
    const many = (await call('palimpsest_initialize_target', { filename: 'many.md', content: sections(9, 3990) })).target_file_id;
    const nine = Array.from({ length: 9 }, (_, i) => ({ symbol_name: `S${i}` }));
    expect(await observe({ target_file_id: many, selections: nine })).toMatchObject({ status: 'rejected', code: 'BUNDLE_RESPONSE_TOO_LARGE', selection_index: null, bundle_id: null });
    const ok = await observe({ target_file_id: many, selections: nine, max_chars: 3000 });
    expect(ok).toMatchObject({ status: 'observed_batch', scope_count: 9 });
    expect(ok.scopes[0]).toMatchObject({ max_chars: 3000, truncated: true, next_offset: 3000 });
    const huge = (await call('palimpsest_initialize_target', { filename: 'huge.md', content: sections(2, 33000) })).target_file_id;
    expect(await observe({ target_file_id: huge, selections: [{ symbol_name: 'S0' }, { symbol_name: 'S1' }], max_chars: 100 })).toMatchObject({ code: 'BUNDLE_RESPONSE_TOO_LARGE' });
  });

  it('rebuild reproduces the observation read model exactly', async () => {
    const report = await rebuildProjections(testDb.db);
    expect(report).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
    expect((await testDb.db.query('SELECT count(*)::int AS n FROM scope_observations')).rows[0].n).toBeGreaterThan(5);
  });
});
