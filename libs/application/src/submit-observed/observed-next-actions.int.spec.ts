import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';
import { inadmissibleActions, recordingCalls } from '../test-support/next-action-admission';

type Answer = Record<string, any>;
const TOOL = 'palimpsest_submit_observed_operations';

const GUIDE = [
  '# Guide', '', 'Intro.', '',
  '## Options', '', 'Some options: alpha, alpha.', '',
  '### More configuration', '', 'Under options.', '',
  '## Reference', '', 'Reference text.', '',
  '### More configuration', '', 'Under reference.', '',
].join('\n');

describe(`observed submissions: every refusal's next action observes what it needs, on ${describeBackend}`, () => {
  let h: AppHarness;
  const { answers, call } = recordingCalls(() => h);
  const follow = (r: Answer, i = 0) => call(r.next_actions[i].operation, r.next_actions[i].params);
  const guards = async (id: string) => {
    const t = await h.call('palimpsest_get_target', { target_file_id: id });
    return { expected_target_version: t.version as number, expected_current_hash: t.current_hash as string };
  };
  const observe = (id: string, symbol_name: string) => call('palimpsest_observe_scope', { target_file_id: id, symbol_name });
  const submit = async (id: string, observation_id: string, operations: object[], more: object = {}) =>
    call(TOOL, { target_file_id: id, observation_id, intent: 'x', operations, ...(await guards(id)), ...more });
  const textOf = async (id: string) => (await h.call('palimpsest_get_target', { target_file_id: id })).current_content as string;

  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());
  afterEach(() => {
    expect(inadmissibleActions(answers)).toEqual([]);
    answers.length = 0;
  });

  it('a consumed observation offers the same selection again, not the whole document', async () => {
    const id = await h.target(GUIDE, 'guide.md');
    const seen = await observe(id, 'Options.More configuration');
    expect((await submit(id, seen.observation_id, [{ op: 'match', match: 'Under options.', replace: 'Below options.' }])).status).toBe('accepted');
    const reused = await submit(id, seen.observation_id, [{ op: 'match', match: 'Below options.', replace: 'Beneath options.' }]);
    expect(reused.diagnostic.code).toBe('OBSERVATION_ALREADY_CONSUMED');
    expect(reused.next_actions).toEqual([{ operation: 'palimpsest_observe_scope', reason: expect.stringContaining('already used'), params: { target_file_id: id, symbol_name: 'Options.More configuration' } }]);
    const again = await follow(reused);
    expect(again).toMatchObject({ status: 'observed', target_version: 1, scope_start: seen.scope_start });
    expect((await submit(id, again.observation_id, [{ op: 'match', match: 'Below options.', replace: 'Beneath options.' }])).status).toBe('accepted');
  });

  it('a stale observation offers the same selection again on the moved text', async () => {
    const id = await h.target(GUIDE, 'guide.md');
    const seen = await observe(id, 'Reference');
    await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', expected_target_version: 0, edits: [{ match: 'Intro.', replace: 'An introduction.' }] });
    const stale = await call(TOOL, { target_file_id: id, observation_id: seen.observation_id, intent: 'x', operations: [{ op: 'match', match: 'Reference text.', replace: 'R.' }], expected_target_version: 0, expected_current_hash: seen.target_current_hash });
    expect(stale.diagnostic.code).toBe('STALE_OBSERVATION_VERSION');
    const again = await follow(stale);
    expect(again).toMatchObject({ status: 'observed', target_version: 1, symbol: { name: 'Reference' } });
  });

  it('an operation outside its scope offers the smallest scope that holds it, and the operation lands there', async () => {
    const id = await h.target(GUIDE, 'guide.md');
    const seen = await observe(id, 'Options.More configuration');
    const op = { op: 'match', match: 'Under reference.', replace: 'Beneath reference.' };
    const outside = await submit(id, seen.observation_id, [op]);
    expect(outside).toMatchObject({ failure_reason: 'span_out_of_bounds', diagnostic: { code: 'OPERATION_OUTSIDE_OBSERVED_SCOPE' } });
    expect(outside.next_actions[0].params).toEqual({ target_file_id: id, symbol_name: 'Reference.More configuration' });
    const wider = await follow(outside);
    expect(wider.status).toBe('observed');
    expect((await submit(id, wider.observation_id, [op])).status).toBe('accepted');
  });

  it('past earlier operations, an operation outside the scope is placed in the text as observed', async () => {
    const id = await h.target(GUIDE, 'guide.md');
    const seen = await observe(id, 'Options.More configuration');
    const text = await textOf(id);
    const start = [...text].length - 'Under reference.\n'.length;
    const ops = [{ op: 'match', match: 'Under options.', replace: 'Under the options, longer.' }, { op: 'span', start: start + 12, end: start + 12 + 'Under reference.'.length, expected_text: 'Under reference.', replace: 'R.' }];
    const outside = await submit(id, seen.observation_id, ops);
    expect(outside.diagnostic.code).toBe('OPERATION_OUTSIDE_OBSERVED_SCOPE');
    expect(outside.next_actions[0].params).toEqual({ target_file_id: id, symbol_name: 'Reference.More configuration' });
  });

  it('an insertion without guards is offered with the text around it as its guards, which lands', async () => {
    const id = await h.target(GUIDE, 'guide.md');
    const seen = await observe(id, 'Guide.Options');
    const at = [...(await textOf(id))].join('').indexOf('alpha, alpha') + 'alpha'.length;
    const r = await submit(id, seen.observation_id, [{ op: 'span', start: at, end: at, expected_text: '', replace: ' (a)' }]);
    expect(r.diagnostic.code).toBe('OBSERVED_INSERTION_GUARDS_REQUIRED');
    expect(r.next_actions[0].params.operations[0]).toMatchObject({ expected_before: expect.stringMatching(/alpha$/), expected_after: expect.stringMatching(/^, alpha/) });
    expect((await follow(r)).status).toBe('accepted');
    expect(await textOf(id)).toContain('alpha (a), alpha');
  });

  it('a missing guard is resent with both; an ambiguous match inside the scope offers each occurrence in it', async () => {
    const id = await h.target(GUIDE, 'guide.md');
    const seen = await observe(id, 'Guide.Options');
    const { expected_target_version } = await guards(id);
    const one = await call(TOOL, { target_file_id: id, observation_id: seen.observation_id, intent: 'x', operations: [{ op: 'match', match: 'Some', replace: 'Several' }], expected_target_version });
    expect(one.diagnostic.code).toBe('missing_guard');
    expect(one.next_actions[0].operation).toBe(TOOL);
    expect((await follow(one)).status).toBe('accepted');
    const next = await observe(id, 'Guide.Options');
    const twice = await submit(id, next.observation_id, [{ op: 'match', match: 'alpha', replace: 'beta' }]);
    expect(twice.failure_reason).toBe('match_ambiguous');
    const offered = twice.next_actions.filter((a: Answer) => a.operation === TOOL);
    expect(offered.map((a: Answer) => a.params.operations[0].occurrence_index)).toEqual([1, 2]);
    expect((await follow(twice, 1)).status).toBe('accepted');
    expect(await textOf(id)).toContain('alpha, beta.');
  });

  it('the batch form: a consumed bundle offers the same selections again; a missing request key the request with one', async () => {
    const id = await h.target(GUIDE, 'guide.md');
    const bundle = await call('palimpsest_observe_scope', { target_file_id: id, selections: [{ symbol_name: 'Options.More configuration' }, { symbol_name: 'Reference.More configuration' }] });
    const groups = bundle.scopes.map((s: Answer) => ({ observation_id: s.observation_id, operations: [{ op: 'match', match: 'Under', replace: 'Beneath' }] }));
    const batch = async (more: object) => call(TOOL, { target_file_id: id, observation_bundle_id: bundle.bundle_id, intent: 'x', groups, ...(await guards(id)), ...more });
    const keyless = await batch({});
    expect(keyless.diagnostic.code).toBe('missing_client_request_id');
    expect(keyless.next_actions[0].operation).toBe(TOOL);
    expect((await follow(keyless)).status).toBe('accepted');
    const reused = await batch({ client_request_id: 'second' });
    expect(reused.diagnostic.code).toBe('OBSERVATION_ALREADY_CONSUMED');
    expect(reused.next_actions[0].params).toEqual({ target_file_id: id, selections: [{ symbol_name: 'Options.More configuration' }, { symbol_name: 'Reference.More configuration' }] });
    expect(await follow(reused)).toMatchObject({ status: 'observed_batch', scope_count: 2, target_version: 1 });
  });

  it('the batch form: mixed forms are resent without the single form, one observation in two groups as one group, two bundles observed as one', async () => {
    const id = await h.target(GUIDE, 'guide.md');
    const bundle = await call('palimpsest_observe_scope', { target_file_id: id, selections: [{ symbol_name: 'Options.More configuration' }, { symbol_name: 'Reference.More configuration' }] });
    const [first, second] = bundle.scopes.map((s: Answer) => s.observation_id);
    let key = 0;
    const batch = async (groups: object[], more: object = {}) => call(TOOL, { target_file_id: id, observation_bundle_id: bundle.bundle_id, intent: 'x', groups, client_request_id: `k-${++key}`, ...(await guards(id)), ...more });
    const mixed = await batch([{ observation_id: first, operations: [{ op: 'match', match: 'Under', replace: 'Beneath' }] }], { observation_id: first });
    expect(mixed.diagnostic.code).toBe('conflicting_arguments');
    expect(mixed.next_actions[0].params.observation_id).toBeUndefined();
    const twice = await batch([{ observation_id: first, operations: [{ op: 'match', match: 'Under', replace: 'Beneath' }] }, { observation_id: first, operations: [{ op: 'match', match: 'options', replace: 'the options' }] }]);
    expect(twice.diagnostic.code).toBe('DUPLICATE_GROUP_OBSERVATION');
    expect(twice.next_actions[0].params.groups).toEqual([{ observation_id: first, operations: [{ op: 'match', match: 'Under', replace: 'Beneath' }, { op: 'match', match: 'options', replace: 'the options' }] }]);
    expect((await follow(twice)).status).toBe('accepted');
    expect(await textOf(id)).toContain('Beneath the options.');
    const other = await call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'Guide.Options' });
    const foreign = await batch([{ observation_id: second, operations: [{ op: 'match', match: 'Under', replace: 'B' }] }, { observation_id: other.observation_id, operations: [{ op: 'match', match: 'Some', replace: 'S' }] }]);
    expect(foreign.diagnostic.code).toBe('OBSERVATION_BUNDLE_MISMATCH');
    expect(foreign.next_actions[0].params.selections).toEqual([{ symbol_name: 'Reference.More configuration' }, { symbol_name: 'Guide.Options' }]);
    expect(await follow(foreign)).toMatchObject({ status: 'observed_batch', scope_count: 2 });
  });

  it('no observation at all offers discovery, which answers', async () => {
    const id = await h.target(GUIDE, 'guide.md');
    for (const observation_id of [undefined, 'not-a-uuid', '00000000-0000-4000-8000-00000000abcd']) {
      const r = await call(TOOL, { target_file_id: id, observation_id, intent: 'x', operations: [{ op: 'match', match: 'Intro.', replace: 'I.' }], ...(await guards(id)) });
      expect(r.status).toBe('rejected');
      expect(await follow(r)).toMatchObject({ status: 'candidates' });
    }
  });
});
