import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';
import { inadmissibleActions, recordingCalls } from '../test-support/next-action-admission';

type Answer = Record<string, any>;

const GUIDE = [
  '# Guide', '', 'Intro.', '',
  '## Options', '', 'Some options.', '',
  '### More configuration', '', 'Under options.', '',
  '## Reference', '', 'Reference text.', '',
  '### More configuration', '', 'Under reference.', '',
  '### Example', '', 'One.', '',
  '### Example', '', 'Two.', '',
].join('\n');

const STORE = [
  'export class Store {',
  '  save(): void {}',
  '  load(): void {}',
  '}',
  'export function save(): void {}',
  '',
].join('\n');

describe(`observe_scope: paths as agents write them, and a ready call for every refusal, on ${describeBackend}`, () => {
  let h: AppHarness;
  let guide: string;
  let store: string;
  const { answers, call } = recordingCalls(() => h);
  const observe = (args: Record<string, unknown>) => call('palimpsest_observe_scope', args);
  const follow = (a: Answer) => call(a.operation, a.params);

  beforeAll(async () => {
    h = await createAppHarness();
    guide = await h.target(GUIDE, 'guide.md');
    store = await h.target(STORE, 'store.ts');
  });
  afterAll(() => h.dispose());
  afterEach(() => {
    expect(inadmissibleActions(answers)).toEqual([]);
    answers.length = 0;
  });

  it('a dotted parent path names a section under a titled document; the full path still does', async () => {
    const short = await observe({ target_file_id: guide, symbol_name: 'Options.More configuration' });
    expect(short).toMatchObject({ status: 'observed', symbol: { name: 'More configuration', parent: 'Guide.Options' } });
    const full = await observe({ target_file_id: guide, symbol_name: 'Guide.Options.More configuration' });
    expect(full).toMatchObject({ status: 'observed', scope_start: short.scope_start, scope_end: short.scope_end });
  });

  it('a class method as Class.method', async () => {
    expect(await observe({ target_file_id: store, symbol_name: 'Store.save' })).toMatchObject({ status: 'observed', symbol: { name: 'save', kind: 'method', parent: 'Store' } });
  });

  it('an ambiguous selection offers one ready selection per candidate, and each observes that candidate', async () => {
    const r = await observe({ target_file_id: guide, symbol_name: 'More configuration', max_chars: 500 });
    expect(r).toMatchObject({ status: 'ambiguous', code: 'AMBIGUOUS_SCOPE_SELECTION', total_candidates: 2 });
    expect(r.next_actions.map((a: Answer) => a.params)).toEqual([
      { target_file_id: guide, symbol_name: 'Options.More configuration', max_chars: 500 },
      { target_file_id: guide, symbol_name: 'Reference.More configuration', max_chars: 500 },
    ]);
    for (const [i, action] of r.next_actions.entries()) {
      const got = await follow(action);
      expect(got).toMatchObject({ status: 'observed', scope_start: r.candidates[i].start, scope_end: r.candidates[i].end });
    }
  });

  it('candidates of one name and kind are told apart by kind, then by start line', async () => {
    const byKind = await observe({ target_file_id: store, symbol_name: 'save' });
    expect(byKind.next_actions.map((a: Answer) => a.params)).toEqual([
      { target_file_id: store, symbol_name: 'Store.save' },
      { target_file_id: store, symbol_name: 'save', kind: 'function' },
    ]);
    // Two sections of one heading under one parent differ only by where they start.
    const overloads = await observe({ target_file_id: guide, symbol_name: 'Reference.Example' });
    expect(overloads).toMatchObject({ status: 'ambiguous', total_candidates: 2 });
    expect(overloads.next_actions.length).toBe(overloads.total_candidates);
    for (const [i, action] of overloads.next_actions.entries()) {
      expect(action.params.start_line).toBe(overloads.candidates[i].start_line);
      expect(await follow(action)).toMatchObject({ status: 'observed', scope_start: overloads.candidates[i].start });
    }
  });

  it('a bundle with an ambiguous selection offers the bundle with each candidate in its place', async () => {
    const r = await observe({ target_file_id: guide, selections: [{ symbol_name: 'Guide.Options' }, { symbol_name: 'More configuration' }] });
    expect(r).toMatchObject({ status: 'ambiguous', selection_index: 1 });
    // The first candidate lies inside Options (an overlapping bundle): only the other is offered, then discovery.
    expect(r.next_actions.map((a: Answer) => a.params.selections ?? a.params.query)).toEqual([
      [{ symbol_name: 'Guide.Options' }, { symbol_name: 'Reference.More configuration' }],
      'More configuration',
    ]);
    expect(await follow(r.next_actions[0])).toMatchObject({ status: 'observed_batch', scope_count: 2 });
    expect(await follow(r.next_actions[1])).toMatchObject({ status: 'candidates', total_candidates: 2 });
  });

  it('a bundle refused for one selection offers the bundle without it; one over its caps a smaller page', async () => {
    const dup = await observe({ target_file_id: guide, selections: [{ symbol_name: 'Guide.Reference' }, { symbol_name: 'Options' }, { symbol_name: 'Options' }] });
    expect(dup).toMatchObject({ code: 'DUPLICATE_SCOPE_SELECTION', selection_index: 2 });
    expect(await follow(dup.next_actions[0])).toMatchObject({ status: 'observed_batch', scope_count: 2 });
    const big = await h.target(Array.from({ length: 9 }, (_, i) => `## S${i}\n\n${'x'.repeat(5000)}\n`).join('\n'), 'big.md');
    const wide = await observe({ target_file_id: big, selections: Array.from({ length: 9 }, (_, i) => ({ symbol_name: `S${i}` })), max_chars: 8000 });
    expect(wide).toMatchObject({ code: 'BUNDLE_RESPONSE_TOO_LARGE' });
    expect(wide.next_actions[0].params.max_chars).toBe(3640);
    expect(await follow(wide.next_actions[0])).toMatchObject({ status: 'observed_batch', scope_count: 9 });
  });

  it('a name that matches nothing offers the discovery that lists its neighbours', async () => {
    const r = await observe({ target_file_id: guide, symbol_name: 'Nowhere.More configuration' });
    expect(r).toMatchObject({ status: 'not_found', code: 'SCOPE_NOT_FOUND' });
    expect(r.next_actions[0].params).toEqual({ target_file_id: guide, query: 'More configuration' });
    expect(await follow(r.next_actions[0])).toMatchObject({ status: 'candidates', total_candidates: 2 });
    const otherTool = await observe({ target_file_id: store, symbol_name: 'Store::load' });
    expect(otherTool.next_actions[0].params).toEqual({ target_file_id: store, query: 'load' });
    expect(await follow(otherTool.next_actions[0])).toMatchObject({ status: 'candidates', candidates: [{ name: 'load', parent: 'Store' }] });
  });

  it('paging a stale observation offers to observe the same selection again', async () => {
    const id = await h.target(GUIDE, 'stale.md');
    const seen = await observe({ target_file_id: id, symbol_name: 'Reference.More configuration' });
    await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', expected_target_version: 0, edits: [{ match: 'Intro.', replace: 'Introduction.' }] });
    const page = await observe({ target_file_id: id, observation_id: seen.observation_id, offset: 1 });
    expect(page).toMatchObject({ code: 'STALE_OBSERVATION_VERSION' });
    expect(page.next_actions[0].params).toEqual({ target_file_id: id, symbol_name: 'Reference.More configuration' });
    expect(await follow(page.next_actions[0])).toMatchObject({ status: 'observed', target_version: 1 });
  });

  it('conflicting selectors, a page past the end and an unsupported file each offer a call that answers', async () => {
    const conflict = await observe({ target_file_id: guide, symbol_name: 'Options', query: 'opt' });
    expect(conflict.code).toBe('conflicting_selectors');
    expect(await follow(conflict.next_actions[0])).toMatchObject({ status: 'candidates' });
    const past = await observe({ target_file_id: guide, symbol_name: 'Guide.Options', offset: 100000 });
    expect(past.code).toBe('offset_out_of_range');
    expect(await follow(past.next_actions[0])).toMatchObject({ status: 'observed', offset: 0 });
    const plain = await h.target('plain text\n', 'notes.txt');
    const unsupported = await observe({ target_file_id: plain, symbol_name: 'x' });
    expect(unsupported.code).toBe('UNSUPPORTED_LANGUAGE');
    expect(await follow(unsupported.next_actions[0])).toMatchObject({ status: 'ok' });
  });
});
