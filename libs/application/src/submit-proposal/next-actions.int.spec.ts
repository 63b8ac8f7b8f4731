import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';
import { inadmissibleActions, recordingCalls } from '../test-support/next-action-admission';

type Answer = Record<string, any>;

/** Next actions of every rejection reason with a deterministic fix, and the reads offered otherwise. */
describe(`next actions that can be sent as they are, on ${describeBackend}`, () => {
  let h: AppHarness;
  const { answers, call } = recordingCalls(() => h);
  const edits = (id: string, version: number | null, list: object[], more: object = {}) =>
    call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', expected_target_version: version, edits: list, ...more });
  const follow = (r: Answer, i = 0) => call(r.next_actions[i].operation, r.next_actions[i].params);
  const textOf = async (id: string) => (await h.call('palimpsest_get_target', { target_file_id: id })).current_content;
  const operations = (r: Answer) => r.next_actions.map((a: Answer) => a.operation);

  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());

  it('offers every listed occurrence (5 of 7), in order, each a complete request, then the find that lists the rest', async () => {
    const id = await h.target('x\nx\nx\nx\nx\nx\nx\n');
    const r = await edits(id, 0, [{ match: 'x', replace: 'y' }]);
    expect(r.failure_reason).toBe('match_ambiguous');
    expect(r.next_actions.slice(0, 5).map((a: Answer) => a.params.edits[0].occurrence_index)).toEqual([1, 2, 3, 4, 5]);
    expect(r.next_actions.slice(0, 5).map((a: Answer) => /at line (\d+),/.exec(a.reason)![1])).toEqual(['1', '2', '3', '4', '5']);
    expect(r.next_actions[5]).toEqual({
      operation: 'palimpsest_find_occurrences', reason: expect.any(String), params: { target_file_id: id, text: 'x', start_occurrence: 6 },
    });
    expect((await follow(r, 3)).status).toBe('accepted');
    expect(await textOf(id)).toBe('x\nx\nx\ny\nx\nx\nx\n');
  });

  it('drops anchors that leave several occurrences, and selects inside the failing change of a later edit', async () => {
    const id = await h.target('let a = 1;\nlet b = 1;\nlet c = 1;\n');
    const anchored = await edits(id, 0, [{ match: '1', replace: '2', anchor_before: 'let a' }]);
    expect(anchored.failure_reason).toBe('match_ambiguous');
    expect(anchored.next_actions[0].params.edits).toEqual([{ match: '1', replace: '2', occurrence_index: 1 }]);
    const later = await edits(id, 0, [{ match: 'let a', replace: 'const a' }, { match: '= 1', replace: '= 3' }]);
    expect(later.failed_change_id).toBe('chg_002');
    const second = later.next_actions.find((a: Answer) => a.reason.includes('at line 2,'));
    expect(second.params.edits).toEqual([{ match: 'let a', replace: 'const a' }, { match: '= 1', replace: '= 3', occurrence_index: 2 }]);
    expect((await call(second.operation, second.params)).status).toBe('accepted');
    expect(await textOf(id)).toBe('const a = 1;\nlet b = 3;\nlet c = 1;\n');
  });

  it('an occurrence_index past the last occurrence offers the ones there are', async () => {
    const id = await h.target('ab ab\n');
    const r = await edits(id, 0, [{ match: 'ab', replace: 'AB', occurrence_index: 3 }]);
    expect(r.failure_reason).toBe('disambiguation_invalid');
    expect(r.next_actions.map((a: Answer) => a.params.edits?.[0].occurrence_index)).toEqual([1, 2]);
  });

  it('a typo is corrected to the exact text of its one close near miss, a transposition included', async () => {
    const id = await h.target('The keeper lights the lantern 🏮 at dusk.\n');
    const r = await edits(id, 0, [{ match: 'lihgts the lantern 🏮', replace: 'lights the lamp 🪔' }]);
    expect(r.failure_reason).toBe('match_absent');
    expect(r.next_actions[0].params.edits).toEqual([{ match: 'lights the lantern 🏮', replace: 'lights the lamp 🪔' }]);
    expect((await follow(r)).status).toBe('accepted');
    expect(await textOf(id)).toBe('The keeper lights the lamp 🪔 at dusk.\n');
  });

  it('a match with nothing close offers a find for its longest present prefix and a read, both complete', async () => {
    const id = await h.target('alpha beta gamma\n');
    const r = await edits(id, 0, [{ match: 'beta zzzzzzzzzzzzzz', replace: 'q' }]);
    expect(r.failure_reason).toBe('match_absent');
    expect(r.next_actions).toEqual([
      { operation: 'palimpsest_find_occurrences', reason: expect.any(String), params: { target_file_id: id, text: 'beta ' } },
      { operation: 'palimpsest_read_target', reason: expect.any(String), params: { target_file_id: id, start: 0, length: 4000 } },
    ]);
  });

  it('a match consumed by an earlier change offers the read around it', async () => {
    const id = await h.target('one\ntwo\nthree four\n');
    const r = await edits(id, 0, [{ match: 'three four', replace: 'x' }, { match: 'four', replace: '4' }]);
    expect(r.failure_reason).toBe('sequential_match_invalid');
    expect(r.next_actions).toEqual([{ operation: 'palimpsest_read_lines', reason: expect.stringContaining('line 3'), params: { target_file_id: id, start_line: 1, max_chars: 2000 } }]);
  });

  it('a span whose text is elsewhere is moved to its one occurrence (astral offsets in code points)', async () => {
    const id = await h.target('🦊🦊 fox den\n');
    const r = await call('palimpsest_submit_operations', {
      target_file_id: id, intent: 'x', expected_target_version: 0, operations: [{ op: 'span', start: 1, end: 4, expected_text: 'den', replace: 'lair' }],
    });
    expect(r.failure_reason).toBe('span_expected_text_mismatch');
    expect(r.next_actions[0].params.operations).toEqual([{ op: 'span', start: 7, end: 10, expected_text: 'den', replace: 'lair' }]);
    expect((await follow(r)).status).toBe('accepted');
    expect(await textOf(id)).toBe('🦊🦊 fox lair\n');
    const out = await call('palimpsest_submit_operations', {
      target_file_id: id, intent: 'x', expected_target_version: 1, operations: [{ op: 'span', start: 90, end: 93, expected_text: 'fox', replace: 'vixen' }],
    });
    expect(out.failure_reason).toBe('span_out_of_bounds');
    expect(out.next_actions[0].params.operations[0]).toMatchObject({ start: 3, end: 6 });
  });

  it('a stale guard offers the same request refreshed only while it still applies; a hash guard is refreshed as a hash', async () => {
    const id = await h.target('alpha beta\n');
    await edits(id, 0, [{ match: 'alpha', replace: 'ALPHA' }]);
    const gone = await edits(id, 0, [{ match: 'alpha', replace: 'a' }]);
    expect(gone.failure_reason).toBe('target_version_mismatch');
    expect(operations(gone)).toEqual(['palimpsest_get_target']);
    const hash = (await h.call('palimpsest_get_target', { target_file_id: id })).current_hash;
    await edits(id, 1, [{ match: 'beta', replace: 'BETA' }]);
    const stale = await edits(id, null, [{ match: 'ALPHA', replace: 'A' }], { expected_target_version: undefined, expected_current_hash: hash });
    expect(stale.failure_reason).toBe('target_hash_mismatch');
    expect(stale.next_actions[0].params).toMatchObject({ expected_current_hash: stale.current_hash });
    expect(stale.next_actions[0].params.expected_target_version).toBeUndefined();
    expect((await follow(stale)).status).toBe('accepted');
  });

  it('a request key bound to another proposal offers it under a derived key, which is idempotent to resend', async () => {
    const id = await h.target('alpha\n');
    await edits(id, 0, [{ match: 'alpha', replace: 'beta' }], { client_request_id: 'k-1' });
    const r = await edits(id, 1, [{ match: 'beta', replace: 'gamma' }], { client_request_id: 'k-1' });
    expect(r.diagnostic.code).toBe('request_key_conflict');
    expect(operations(r)).toEqual(['palimpsest_submit_edits', 'palimpsest_get_attempt_log']);
    const first = await follow(r);
    expect(first).toMatchObject({ status: 'accepted', deduplicated: false });
    expect(await follow(r)).toMatchObject({ status: 'accepted', deduplicated: true, attempt_id: first.attempt_id });
  });

  it('lineage naming an unknown attempt is rebuilt to name the rejected one; a missing guard offers the read', async () => {
    const id = await h.target('alpha\n');
    const r = await edits(id, 0, [{ match: 'alpha', replace: 'beta' }], { parent_attempt_id: '00000000-0000-4000-8000-00000000abcd' });
    expect(r.diagnostic.code).toBe('parent_attempt_not_found');
    expect(r.next_actions[0].params).toMatchObject({ parent_attempt_id: r.attempt_id, attempt: 2 });
    expect((await follow(r)).status).toBe('accepted');
    const unguarded = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', edits: [{ match: 'beta', replace: 'c' }] });
    expect(unguarded.diagnostic.code).toBe('missing_guard');
    expect(unguarded.next_actions).toEqual([{ operation: 'palimpsest_get_target', reason: expect.any(String), params: { target_file_id: id } }]);
  });

  it('a malformed request key or source is rebuilt: a key derived from the rejected attempt, the source dropped', async () => {
    const id = await h.target('alpha\n');
    const key = await edits(id, 0, [{ match: 'alpha', replace: 'beta' }], { client_request_id: 'has space\u0007' });
    expect(key.diagnostic.code).toBe('invalid_client_request_id');
    expect(key.next_actions[0].params).toMatchObject({ client_request_id: `retry-${key.attempt_id}`, parent_attempt_id: key.attempt_id });
    expect((await follow(key)).status).toBe('accepted');
    const source = await edits(id, 1, [{ match: 'beta', replace: 'gamma' }], { source: '' });
    expect(source.diagnostic.code).toBe('invalid_source');
    expect(source.next_actions[0].params.source).toBeUndefined();
    expect((await follow(source)).status).toBe('accepted');
  });

  it('a proposal that does not fit its format offers the capabilities', async () => {
    const id = await h.target('abc\n');
    const r = await edits(id, 0, [{ match: 'abc', replace: 'x', bogus: 1 }]);
    expect(r.failure_reason).toBe('protocol_invalid');
    expect(r.next_actions).toEqual([{ operation: 'palimpsest_capabilities', reason: expect.any(String), params: {} }]);
  });

  it('a preview offers corrected previews; a stale replacement is offered refreshed; a stale save offers the read', async () => {
    const id = await h.target('alpha alpha\n');
    const p = await call('palimpsest_preview', { target_file_id: id, format: 'patchdiff-tx/1', intent: 'x', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'b' }] });
    expect(p.next_actions.map((a: Answer) => [a.operation, a.params.format, a.params.edits[0].occurrence_index])).toEqual([
      ['palimpsest_preview', 'patchdiff-tx/1', 1],
      ['palimpsest_preview', 'patchdiff-tx/1', 2],
    ]);
    expect(p.next_actions[0].params.parent_attempt_id).toBeUndefined();
    expect((await follow(p, 1)).status).toBe('accepted');
    await edits(id, 0, [{ match: 'alpha alpha', replace: 'beta' }]);
    const whole = await call('palimpsest_submit_replacement', { target_file_id: id, intent: 'x', expected_target_version: 0, replacement: 'gamma\n' });
    expect(whole.failure_reason).toBe('target_version_mismatch');
    expect(whole.next_actions[0]).toMatchObject({ operation: 'palimpsest_submit_replacement', params: { expected_target_version: 1, replacement: 'gamma\n' } });
    const save = await call('palimpsest_save', { target_file_id: id, expected_target_version: 0 });
    expect(save.status).toBe('rejected');
    expect(save.next_actions).toEqual([{ operation: 'palimpsest_get_target', reason: expect.any(String), params: { target_file_id: id } }]);
  });

  it('every next action offered above passes admission and the whole params schema of its operation', () => {
    const offered = answers.filter((a) => Array.isArray(a.next_actions) && a.next_actions.length);
    expect(offered.length).toBeGreaterThan(15);
    expect(offered.every((a) => a.next_actions.every((n: Answer) => n.params !== undefined))).toBe(true);
    expect(inadmissibleActions(offered)).toEqual([]);
  });
});
