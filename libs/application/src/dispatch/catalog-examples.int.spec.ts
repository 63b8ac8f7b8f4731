import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { EXAMPLE_HASH, EXAMPLE_TARGET_ID, EXAMPLE_TEXT } from '@palimpsest/protocol/catalog/fragments';
import { bindObserved, EXAMPLE_DOCUMENT } from '@palimpsest/protocol/catalog/observed-examples';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

const SUCCESS = new Set(['ok', 'accepted', 'saved', 'success', 'candidates', 'observed', 'observed_batch', 'scope_page']);
const examples = CATALOG.flatMap((op) => op.examples.map((ex) => [op.name, ex.title, ex.params, ex.setup] as const));

describe(`every catalog example succeeds on ${describeBackend}`, () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());

  it('has examples to run, written against the documented fixture', () => {
    expect(examples.length).toBeGreaterThanOrEqual(13);
  });

  it.each(examples)('%s: %s', async (name, _title, params, setup) => {
    const id = await h.target(setup ? EXAMPLE_DOCUMENT : EXAMPLE_TEXT);
    // An observed example's ids stand for the receipts of a real observation of this target.
    const ids: Record<string, string> = { [id]: EXAMPLE_TARGET_ID, ...(setup ? await bindObserved(h.call, setup, id) : {}) };
    const bound = Object.entries(ids).reduce((p, [real, shown]) => JSON.parse(JSON.stringify(p).split(shown).join(real)), params);
    const result = await h.call(name, bound);
    expect({ name, status: result.status, ok: SUCCESS.has(result.status) }).toMatchObject({ name, ok: true });
  });

  it('the fixture hash is the hash the examples guard with', async () => {
    const id = await h.target(EXAMPLE_TEXT);
    expect((await h.call('palimpsest_get_target', { target_file_id: id })).current_hash).toBe(EXAMPLE_HASH);
  });
});

describe(`palimpsest_preview on ${describeBackend}`, () => {
  let h: AppHarness;
  let id: string;
  beforeAll(async () => {
    h = await createAppHarness();
    id = await h.target(EXAMPLE_TEXT);
  });
  afterAll(() => h.dispose());

  const rows = () => h.count('SELECT count(*) FROM events');

  it('evaluates without writing anything', async () => {
    const before = await rows();
    const accepted = await h.call('palimpsest_preview', {
      target_file_id: id, format: 'patchdiff-tx/1', expected_target_version: 0, intent: 'x',
      edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }],
    });
    expect(accepted).toMatchObject({ preview: true, advisory: true, status: 'accepted', before_version: 0, current_version: 0 });
    expect(accepted.after_hash.slice(0, 8)).toBe('adf7157c');
    expect(accepted.change_facts[0]).toMatchObject({ span_start: 11, span_end: 16 });
    const rejected = await h.call('palimpsest_preview', {
      target_file_id: id, format: 'patchdiff-tx/2', expected_target_version: 0, intent: 'x',
      operations: [{ op: 'span', start: 0, end: 5, expected_text: 'beta', replace: 'x' }],
    });
    expect(rejected).toMatchObject({ status: 'rejected', failure_reason: 'span_expected_text_mismatch', stage: 'transaction_applicability' });
    expect(await rows()).toBe(before);
  });

  it('rejects fields of another format even when null, and requires a guard', async () => {
    const mixed = await h.call('palimpsest_preview', {
      target_file_id: id, format: 'patchdiff-tx/1', expected_target_version: 0, intent: 'x',
      edits: [{ match: 'alpha', replace: 'g', occurrence_index: 1 }], operations: null,
    });
    expect(mixed).toMatchObject({ status: 'rejected', failure_reason: 'protocol_invalid' });
    const unguarded = await h.call('palimpsest_preview', {
      target_file_id: id, format: 'patchdiff-tx/3', intent: 'x', replacement: 'y',
    });
    expect(unguarded).toMatchObject({ status: 'rejected', failure_reason: 'context_invalid' });
  });

  it('refuses request keys and lineage as unknown arguments', async () => {
    const r = await h.call('palimpsest_preview', {
      target_file_id: id, format: 'patchdiff-tx/3', expected_target_version: 0, intent: 'x', replacement: 'y', client_request_id: 'k',
    });
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'unknown_argument', unknown_arguments: ['client_request_id'] });
  });
});
