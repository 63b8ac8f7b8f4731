import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { inadmissible } from '../test-support/next-action-admission';
import { dispatchRequest as dispatch, type DispatchOptions } from './dispatch';

type Answer = Record<string, any>;

/** What a next action may answer when sent as given: the write landed, or the read answered. */
const ANSWERED = new Set(['accepted', 'ok', 'success', 'candidates', 'observed', 'observed_batch', 'scope_page']);

const DOC = ['# Guide', '', 'Intro: alpha alpha.', '', '## Options', '', 'Some options.', '', '### More configuration', '', 'Under options.', '', '## Reference', '', 'Under reference.', ''].join('\n');

/**
 * Every refusal kind an agent can meet on the proposal side, driven through dispatch: each carries a
 * next action, and that action, sent exactly as given, lands or is the read that answers.
 */
describe(`every proposal-side refusal carries a next action that answers, on ${describeBackend}`, () => {
  let testDb: TestDb;
  let ctx: AppContext;
  let strict: AppContext;
  const call = (name: string, args: unknown, opts: DispatchOptions = {}, on = ctx) => dispatch(on, name, args, opts) as Promise<Answer>;
  const target = async (content = DOC, filename = 'guide.md') => (await call('palimpsest_initialize_target', { filename, content })).target_file_id as string;
  const guards = async (id: string) => {
    const t = await call('palimpsest_get_target', { target_file_id: id });
    return { expected_target_version: t.version as number, expected_current_hash: t.current_hash as string };
  };
  const edits = async (id: string, list: object[], more: object = {}) => call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', edits: list, expected_target_version: 0, ...more });
  const operations = (id: string, list: object[], more: object = {}) => call('palimpsest_submit_operations', { target_file_id: id, intent: 'x', operations: list, expected_target_version: 0, ...more });
  const observe = (id: string, args: object, opts: DispatchOptions = {}) => call('palimpsest_observe_scope', { target_file_id: id, ...args }, opts);
  const observed = async (id: string, observation_id: unknown, list: object[], more: object = {}) =>
    call('palimpsest_submit_observed_operations', { target_file_id: id, observation_id, intent: 'x', operations: list, ...(await guards(id)), ...more });
  const bundleOf = (id: string) => observe(id, { selections: [{ symbol_name: 'Options.More configuration' }, { symbol_name: 'Guide.Reference' }] });
  const batch = async (id: string, bundle: Answer, groups: object[], more: object = {}) =>
    call('palimpsest_submit_observed_operations', { target_file_id: id, observation_bundle_id: bundle.bundle_id, intent: 'x', groups, ...(await guards(id)), client_request_id: `k-${Math.random()}`, ...more });
  const under = (o: Answer, match: string, replace: string) => ({ observation_id: o.observation_id, operations: [{ op: 'match', match, replace }] });

  /** [kind, the refusal's code or failure_reason, how to meet it]; the options are the session's (read-only). */
  const cases: [string, string, () => Promise<Answer>, DispatchOptions?][] = [
    ['tx/1 ambiguous match', 'match_ambiguous', async () => edits(await target(), [{ match: 'alpha', replace: 'beta' }])],
    ['tx/1 near miss', 'match_absent', async () => edits(await target(), [{ match: 'Some optoins.', replace: 'Options.' }])],
    ['tx/1 absent match', 'match_absent', async () => edits(await target(), [{ match: 'zzzz qqqq', replace: 'y' }])],
    ['tx/1 occurrence past the last', 'disambiguation_invalid', async () => edits(await target(), [{ match: 'alpha', replace: 'b', occurrence_index: 3 }])],
    ['tx/1 match consumed by an earlier edit', 'sequential_match_invalid', async () => edits(await target(), [{ match: 'Some options.', replace: 'x' }, { match: 'Some', replace: 'y' }])],
    ['tx/1 stale version', 'target_version_mismatch', async () => {
      const id = await target();
      await edits(id, [{ match: 'Intro', replace: 'Introduction' }]);
      return edits(id, [{ match: 'Some', replace: 'Several' }]);
    }],
    ['tx/1 stale hash', 'target_hash_mismatch', async () => {
      const id = await target();
      const { expected_current_hash } = await guards(id);
      await edits(id, [{ match: 'Intro', replace: 'Introduction' }]);
      return edits(id, [{ match: 'Some', replace: 'Several' }], { expected_target_version: undefined, expected_current_hash });
    }],
    ['tx/1 request key bound to another proposal', 'request_key_conflict', async () => {
      const id = await target();
      await edits(id, [{ match: 'Intro', replace: 'Introduction' }], { client_request_id: 'k' });
      return edits(id, [{ match: 'Some', replace: 'Several' }], { client_request_id: 'k', expected_target_version: 1 });
    }],
    ['tx/1 lineage naming an unknown attempt', 'parent_attempt_not_found', async () => edits(await target(), [{ match: 'Some', replace: 'S' }], { parent_attempt_id: '00000000-0000-4000-8000-0000000000ff', attempt: 2 })],
    ['tx/1 no guard', 'missing_guard', async () => edits(await target(), [{ match: 'Some', replace: 'S' }], { expected_target_version: undefined })],
    ['tx/1 malformed edit', 'protocol_invalid', async () => edits(await target(), [{ replace: 'S' }])],
    ['tx/1 unobserved under strict observation', 'OBSERVATION_REQUIRED', async () => {
      const id = (await call('palimpsest_initialize_target', { filename: 'guide.md', content: DOC }, {}, strict)).target_file_id;
      return call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', edits: [{ match: 'Some', replace: 'S' }], expected_target_version: 0 }, {}, strict);
    }],
    ['tx/2 span off its text', 'span_expected_text_mismatch', async () => operations(await target(), [{ op: 'span', start: 0, end: 5, expected_text: 'Intro', replace: 'I' }])],
    ['tx/2 span past the end', 'span_out_of_bounds', async () => operations(await target(), [{ op: 'span', start: 900, end: 905, expected_text: 'Intro', replace: 'I' }])],
    ['tx/2 ambiguous match', 'match_ambiguous', async () => operations(await target(), [{ op: 'match', match: 'Under', replace: 'U' }])],
    ['tx/3 stale replacement', 'target_version_mismatch', async () => {
      const id = await target();
      await edits(id, [{ match: 'Intro', replace: 'Introduction' }]);
      return call('palimpsest_submit_replacement', { target_file_id: id, intent: 'x', replacement: 'new text\n', expected_target_version: 0 });
    }],
    ['tx/3 over the limit by its line endings only', 'replacement_too_large', async () =>
      call('palimpsest_submit_replacement', { target_file_id: await target(), intent: 'x', replacement: 'ab\r\n'.repeat(300_000), expected_target_version: 0 })],
    ['tx/3 replacement not a string', 'protocol_invalid', async () => call('palimpsest_submit_replacement', { target_file_id: await target(), intent: 'x', replacement: 42, expected_target_version: 0 })],
    ['tx/1 text PostgreSQL cannot hold', 'target_encoding_invalid', async () => edits(await target(), [{ match: 'Some', replace: 'S\uD800' }])],
    ['preview of an ambiguous match', 'match_ambiguous', async () => call('palimpsest_preview', { target_file_id: await target(), format: 'patchdiff-tx/1', intent: 'x', edits: [{ match: 'alpha', replace: 'b' }], expected_target_version: 0 })],
    ['preview against a stale version', 'target_version_mismatch', async () => {
      const id = await target();
      await edits(id, [{ match: 'Intro', replace: 'Introduction' }]);
      return call('palimpsest_preview', { target_file_id: id, format: 'patchdiff-tx/2', intent: 'x', operations: [{ op: 'match', match: 'Some', replace: 'S' }], expected_target_version: 0 });
    }],
    ['observed: no observation', 'OBSERVATION_REQUIRED', async () => observed(await target(), undefined, [{ op: 'match', match: 'Some', replace: 'S' }])],
    ['observed: malformed observation id', 'INVALID_OBSERVATION_ID', async () => observed(await target(), 'nope', [{ op: 'match', match: 'Some', replace: 'S' }])],
    ['observed: unknown observation', 'UNKNOWN_OBSERVATION_ID', async () => observed(await target(), '00000000-0000-4000-8000-0000000000aa', [{ op: 'match', match: 'Some', replace: 'S' }])],
    ['observed: another target’s observation', 'OBSERVATION_TARGET_MISMATCH', async () => {
      const other = await observe(await target(), { symbol_name: 'Guide.Options' });
      return observed(await target(), other.observation_id, [{ op: 'match', match: 'Some', replace: 'S' }]);
    }],
    ['observed: editing cycle closed by a save', 'OBSERVATION_CYCLE_MISMATCH', async () => {
      const id = await target();
      const o = await observe(id, { symbol_name: 'Guide.Options' });
      await call('palimpsest_save', { target_file_id: id, ...(await guards(id)) });
      return observed(id, o.observation_id, [{ op: 'match', match: 'Some', replace: 'S' }]);
    }],
    ['observed: consumed observation', 'OBSERVATION_ALREADY_CONSUMED', async () => {
      const id = await target();
      const o = await observe(id, { symbol_name: 'Guide.Options' });
      await observed(id, o.observation_id, [{ op: 'match', match: 'Some', replace: 'Several' }]);
      return observed(id, o.observation_id, [{ op: 'match', match: 'Several', replace: 'S' }]);
    }],
    ['observed: stale version', 'STALE_OBSERVATION_VERSION', async () => {
      const id = await target();
      const o = await observe(id, { symbol_name: 'Guide.Options' });
      await edits(id, [{ match: 'Intro', replace: 'Introduction' }]);
      return observed(id, o.observation_id, [{ op: 'match', match: 'Some', replace: 'S' }], { expected_target_version: 0, expected_current_hash: o.target_current_hash });
    }],
    ['observed: operation outside the scope', 'OPERATION_OUTSIDE_OBSERVED_SCOPE', async () => {
      const id = await target();
      const o = await observe(id, { symbol_name: 'Options.More configuration' });
      return observed(id, o.observation_id, [{ op: 'match', match: 'Under reference.', replace: 'U' }]);
    }],
    ['observed: insertion without guards', 'OBSERVED_INSERTION_GUARDS_REQUIRED', async () => {
      const id = await target();
      const o = await observe(id, { symbol_name: 'Guide.Options' });
      const at = DOC.indexOf('Some options') + 4;
      return observed(id, o.observation_id, [{ op: 'span', start: at, end: at, expected_text: '', replace: ' more' }]);
    }],
    ['observed: one guard', 'missing_guard', async () => {
      const id = await target();
      const o = await observe(id, { symbol_name: 'Guide.Options' });
      return observed(id, o.observation_id, [{ op: 'match', match: 'Some', replace: 'S' }], { expected_current_hash: undefined });
    }],
    ['observed: ambiguous match in the scope', 'match_ambiguous', async () => {
      const id = await target();
      const o = await observe(id, { symbol_name: 'Guide' });
      return observed(id, o.observation_id, [{ op: 'match', match: 'alpha', replace: 'b' }]);
    }],
    ['batch: no request key', 'missing_client_request_id', async () => {
      const id = await target();
      const b = await bundleOf(id);
      return batch(id, b, [under(b.scopes[0], 'Under options.', 'U')], { client_request_id: undefined });
    }],
    ['batch: single and batch fields mixed', 'conflicting_arguments', async () => {
      const id = await target();
      const b = await bundleOf(id);
      return batch(id, b, [under(b.scopes[0], 'Under options.', 'U')], { observation_id: b.scopes[0].observation_id });
    }],
    ['batch: malformed groups', 'invalid_groups', async () => {
      const id = await target();
      return batch(id, await bundleOf(id), []);
    }],
    ['batch: one observation in two groups', 'DUPLICATE_GROUP_OBSERVATION', async () => {
      const id = await target();
      const b = await bundleOf(id);
      return batch(id, b, [under(b.scopes[0], 'Under', 'U'), under(b.scopes[0], 'options', 'o')]);
    }],
    ['batch: an observation of another bundle', 'OBSERVATION_BUNDLE_MISMATCH', async () => {
      const id = await target();
      const b = await bundleOf(id);
      const single = await observe(id, { symbol_name: 'Guide.Options' });
      return batch(id, b, [under(b.scopes[0], 'Under', 'U'), under(single, 'Some', 'S')]);
    }],
    ['batch: unknown bundle', 'UNKNOWN_OBSERVATION_ID', async () => {
      const id = await target();
      const b = await bundleOf(id);
      return batch(id, { bundle_id: '00000000-0000-4000-8000-0000000000bb' }, [under(b.scopes[0], 'Under', 'U')]);
    }],
    ['batch: consumed bundle', 'OBSERVATION_ALREADY_CONSUMED', async () => {
      const id = await target();
      const b = await bundleOf(id);
      await batch(id, b, [under(b.scopes[0], 'Under options.', 'U.')]);
      return batch(id, b, [under(b.scopes[0], 'U.', 'V.')]);
    }],
    ['observe: name matching nothing', 'SCOPE_NOT_FOUND', async () => observe(await target(), { symbol_name: 'Nowhere' })],
    ['observe: ambiguous name', 'AMBIGUOUS_SCOPE_SELECTION', async () => observe(await target(`${DOC}\n### More configuration\n\nUnder reference too.\n`), { symbol_name: 'More configuration' })],
    ['observe: bundle repeating a selection', 'DUPLICATE_SCOPE_SELECTION', async () => observe(await target(), { selections: [{ symbol_name: 'Guide.Reference' }, { symbol_name: 'Guide.Reference' }] })],
    ['observe: bundle of overlapping scopes', 'OVERLAPPING_SCOPE_SELECTION', async () => observe(await target(), { selections: [{ symbol_name: 'Guide.Options' }, { symbol_name: 'Options.More configuration' }] })],
    ['observe: bundle over its caps', 'BUNDLE_RESPONSE_TOO_LARGE', async () => {
      const id = await target(Array.from({ length: 9 }, (_, i) => `## S${i}\n\n${'x'.repeat(5000)}\n`).join('\n'));
      return observe(id, { selections: Array.from({ length: 9 }, (_, i) => ({ symbol_name: `S${i}` })), max_chars: 8000 });
    }],
    ['observe: page of an unknown observation', 'UNKNOWN_OBSERVATION_ID', async () => observe(await target(), { observation_id: '00000000-0000-4000-8000-0000000000cc' })],
    ['observe: page of a malformed observation id', 'INVALID_OBSERVATION_ID', async () => observe(await target(), { observation_id: 'nope' })],
    ['observe: page of another target’s observation', 'OBSERVATION_TARGET_MISMATCH', async () => {
      const o = await observe(await target(), { symbol_name: 'Guide.Options' });
      return observe(await target(), { observation_id: o.observation_id });
    }],
    ['observe: page after a save', 'OBSERVATION_CYCLE_MISMATCH', async () => {
      const id = await target();
      const o = await observe(id, { symbol_name: 'Guide.Options' });
      await call('palimpsest_save', { target_file_id: id, ...(await guards(id)) });
      return observe(id, { observation_id: o.observation_id });
    }],
    ['observe: page of a stale observation', 'STALE_OBSERVATION_VERSION', async () => {
      const id = await target();
      const o = await observe(id, { symbol_name: 'Guide.Options' });
      await edits(id, [{ match: 'Intro', replace: 'Introduction' }]);
      return observe(id, { observation_id: o.observation_id });
    }],
    ['observe: page past the scope', 'offset_out_of_range', async () => observe(await target(), { symbol_name: 'Guide.Options', offset: 100000 })],
    ['observe: file without a grammar', 'UNSUPPORTED_LANGUAGE', async () => observe(await target('plain\n', 'notes.txt'), { symbol_name: 'x' })],
    ['observe: blank selector', 'blank_selector', async () => observe(await target(), { symbol_name: ' ' })],
    ['observe: conflicting selectors', 'conflicting_selectors', async () => observe(await target(), { symbol_name: 'Options', query: 'opt' })],
    ['observe: a selection in a read-only session', 'operation_not_permitted', async () => observe(await target(), { symbol_name: 'Guide.Options' }, { readOnly: true }), { readOnly: true }],
  ];

  beforeAll(async () => {
    testDb = await createTestDb();
    ctx = appContext(testDb.db, { workspace: null });
    strict = appContext(testDb.db, { workspace: null, strictObservation: true });
  });
  afterAll(() => testDb.dispose());

  it.each(cases)('%s (%s)', async (_kind, code, meet, opts = {}) => {
    const refusal = await meet();
    expect([refusal.code, refusal.failure_reason, refusal.diagnostic?.code]).toContain(code);
    expect(ANSWERED.has(refusal.status)).toBe(false);
    expect(refusal.next_actions?.length).toBeGreaterThan(0);
    const [first] = refusal.next_actions;
    expect(inadmissible(first)).toBeNull();
    const answer = await call(first.operation, first.params, opts, refusal.diagnostic?.mode === 'strict_observation' ? strict : ctx);
    expect([first.operation, answer.status, ANSWERED.has(answer.status)]).toEqual([first.operation, answer.status, true]);
  });
});
