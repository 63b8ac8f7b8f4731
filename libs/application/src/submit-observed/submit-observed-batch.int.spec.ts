import { randomUUID } from 'node:crypto';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';

const SOURCE = 'export function alpha(x: number) {\n  return x + 1;\n}\n\nexport function beta() {\n  return 2;\n}\n\nexport function gamma() {\n  return 3;\n}\n';
const TOOL = 'palimpsest_submit_observed_operations';
const SELECTIONS = [{ symbol_name: 'alpha' }, { symbol_name: 'beta' }, { symbol_name: 'gamma' }];

describe(`palimpsest_submit_observed_operations (batch form) on ${describeBackend}`, () => {
  let testDb: TestDb;
  let ctx: AppContext;
  const call = (name: string, args: unknown) => dispatch(ctx, name, args) as Promise<Record<string, any>>;
  const newTarget = async (content = SOURCE) => (await call('palimpsest_initialize_target', { filename: 'mod.ts', content, content_type: 'text/typescript' })).target_file_id as string;
  const head = async (id: string) => {
    const t = await call('palimpsest_get_target', { target_file_id: id });
    return { expected_target_version: t.version as number, expected_current_hash: t.current_hash as string };
  };
  const observeBundle = (id: string) => call('palimpsest_observe_scope', { target_file_id: id, selections: SELECTIONS });
  /** A scope-local span over `needle` in the scope's text (BMP: code points are UTF-16 units). */
  const localSpan = (scope: string, needle: string, replace: string) => {
    const start = scope.indexOf(needle);
    return { op: 'span', start, end: start + needle.length, expected_text: needle, replace };
  };
  const codes = async (id: string) => (await call('palimpsest_get_attempt_log', { target_file_id: id, status: 'rejected', limit: 100, detail: true })).entries.map((e: any) => e.diagnostic?.code);
  const consumed = async (bundleId: string) =>
    (await testDb.db.query('SELECT ordinal, consumed_attempt_id::text AS a FROM scope_observations WHERE bundle_id = $1 ORDER BY ordinal', [bundleId])).rows.map((r: any) => r.a);
  /** The batch over alpha (group 0) and gamma (group 1) of a fresh bundle. */
  const twoGroups = (b: any) => [
    { observation_id: b.scopes[0].observation_id, operations: [localSpan(b.scopes[0].text, 'x + 1', 'x + 2'), { op: 'match', match: 'number', replace: 'bigint' }] },
    { observation_id: b.scopes[2].observation_id, operations: [{ op: 'match', match: '3', replace: '33' }] },
  ];

  beforeAll(async () => {
    testDb = await createTestDb();
    ctx = appContext(testDb.db, { workspace: null });
  });
  afterAll(() => testDb.dispose());

  it('accepts a batch over a subset of a bundle as one attempt and one version step; its observations are consumed, replay succeeds', async () => {
    const id = await newTarget();
    const b = await observeBundle(id);
    expect(b).toMatchObject({ status: 'observed_batch', scope_count: 3 });
    const args = { target_file_id: id, observation_bundle_id: b.bundle_id, intent: 'batch', groups: twoGroups(b), ...(await head(id)), client_request_id: 'batch-1' };
    const res = await call(TOOL, args);
    const expected = SOURCE.replace('x + 1', 'x + 2').replace('number', 'bigint').replace('return 3', 'return 33');
    expect(res).toMatchObject({ status: 'accepted', before_version: 0, version: 1, observation_bundle_id: b.bundle_id, group_count: 2, change_count: 3, manifest_entries_added: 3 });
    expect(res.groups).toEqual([
      { group_index: 0, observation_id: b.scopes[0].observation_id, ordinal: 1, symbol_name: 'alpha', scope_start: b.scopes[0].scope_start, scope_end: b.scopes[0].scope_end, change_count: 2 },
      { group_index: 1, observation_id: b.scopes[2].observation_id, ordinal: 3, symbol_name: 'gamma', scope_start: b.scopes[2].scope_start, scope_end: b.scopes[2].scope_end, change_count: 1 },
    ]);
    // Facts are absolute spans of the text each group applied to (groups apply by descending scope).
    expect(res.evidence.changes.map((c: any) => [c.change_index, c.span_start])).toEqual([[1, SOURCE.indexOf('x + 1')], [2, SOURCE.indexOf('number')], [3, SOURCE.indexOf('3;')]]);
    expect((await call('palimpsest_read_target', { target_file_id: id })).text).toBe(expected);
    const log = await call('palimpsest_get_attempt_log', { target_file_id: id, include_content: true, detail: true });
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({ status: 'accepted', protocol_version: 'patchdiff-tx/2', runtime_version: 'palimpsest-observed-batch-r1' });
    expect(JSON.parse(log.entries[0].attempt_content)).toMatchObject({ protocol_version: 'palimpsest-observed-batch/1', observation_bundle_id: b.bundle_id, groups: [{ observation: { ordinal: 1, bundle_id: b.bundle_id } }, { observation: { ordinal: 3 } }] });
    expect(await consumed(b.bundle_id)).toEqual([res.attempt_id, null, res.attempt_id]);
    expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', accepted_transactions_replayed: 1, materialized_state_matches: true });

    // Key recovery precedes every observation and guard check: the resend answers the recorded outcome.
    expect(await call(TOOL, args)).toMatchObject({ status: 'accepted', deduplicated: true, attempt_id: res.attempt_id, group_count: 2 });
    // A changed body under the same key conflicts through the audited mechanism.
    const changed = await call(TOOL, { ...args, groups: [twoGroups(b)[1]] });
    expect(changed).toMatchObject({ status: 'rejected', diagnostic: { code: 'request_key_conflict', existing_attempt_id: res.attempt_id, differing_fields: expect.arrayContaining(['groups', 'groups[0].observation.ordinal']) } });
    const reused = await call(TOOL, { ...args, ...(await head(id)), client_request_id: 'batch-2', groups: [{ observation_id: b.scopes[1].observation_id, operations: [{ op: 'match', match: '2', replace: '22' }] }, twoGroups(b)[1]] });
    expect(reused).toMatchObject({ status: 'rejected', diagnostic: { code: 'OBSERVATION_ALREADY_CONSUMED', group_index: 1 } });
    expect(await consumed(b.bundle_id)).toEqual([res.attempt_id, null, res.attempt_id]);
  });

  it('refuses every malformed batch, audited, before anything is consumed', async () => {
    const id = await newTarget();
    const b = await observeBundle(id);
    const single = await call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'beta' });
    const g = await head(id);
    const base = { target_file_id: id, observation_bundle_id: b.bundle_id, intent: 'i', groups: twoGroups(b), ...g, client_request_id: 'k' };
    let n = 0;
    // A fresh key each: a key once recorded answers (or conflicts) before any other check.
    const expectCode = async (args: Record<string, unknown>, diagnostic: Record<string, unknown>) => {
      const res = await call(TOOL, 'client_request_id' in args ? { ...args, client_request_id: `k-${++n}` } : args);
      expect(res).toMatchObject({ status: 'rejected', diagnostic });
    };
    const op = { op: 'match', match: 'beta', replace: 'b' };
    const { observation_bundle_id: _b, ...noBundle } = base;
    const { client_request_id: _k, ...noKey } = base;
    await expectCode({ ...base, observation_id: single.observation_id }, { code: 'conflicting_arguments', arguments: ['observation_id'] });
    await expectCode(noBundle, { code: 'OBSERVATION_REQUIRED', argument: 'observation_bundle_id' });
    await expectCode({ ...base, observation_bundle_id: 'nope' }, { code: 'INVALID_OBSERVATION_ID', argument: 'observation_bundle_id' });
    await expectCode(noKey, { code: 'missing_client_request_id' });
    await expectCode({ ...base, expected_current_hash: null }, { code: 'missing_guard', argument: 'expected_current_hash' });
    await expectCode({ ...base, groups: [] }, { code: 'invalid_groups' });
    await expectCode({ ...base, groups: Array.from({ length: 33 }, () => ({ observation_id: randomUUID(), operations: [op] })) }, { code: 'invalid_groups' });
    await expectCode({ ...base, groups: [{ operations: [op] }] }, { code: 'OBSERVATION_REQUIRED', group_index: 0 });
    await expectCode({ ...base, groups: [twoGroups(b)[0], { observation_id: 'x', operations: [op] }] }, { code: 'INVALID_OBSERVATION_ID', group_index: 1 });
    await expectCode({ ...base, groups: [twoGroups(b)[0], twoGroups(b)[0]] }, { code: 'DUPLICATE_GROUP_OBSERVATION', group_index: 1 });
    await expectCode({ ...base, groups: [{ observation_id: b.scopes[1].observation_id, operations: [] }] }, { code: 'empty_changes', group_index: 0 });
    const many = Array.from({ length: 65 }, (_, i) => ({ op: 'match', match: 'return', replace: 'return', change_id: `c${i}` }));
    await expectCode({ ...base, groups: [{ observation_id: b.scopes[0].observation_id, operations: many }, { observation_id: b.scopes[1].observation_id, operations: many.map((o) => ({ ...o, change_id: `d${o.change_id}` })) }] }, { code: 'too_many_operations', group_index: 1 });
    const named = (i: number) => ({ observation_id: b.scopes[i].observation_id, operations: [{ ...op, match: 'return', change_id: 'same' }] });
    await expectCode({ ...base, groups: [named(0), named(1)] }, { code: 'duplicate_change_id', group_index: 1, operation_index: 0 });
    await expectCode({ ...base, observation_bundle_id: randomUUID() }, { code: 'UNKNOWN_OBSERVATION_ID', argument: 'observation_bundle_id' });
    await expectCode({ ...base, groups: [{ observation_id: randomUUID(), operations: [op] }] }, { code: 'UNKNOWN_OBSERVATION_ID', group_index: 0 });
    await expectCode({ ...base, groups: [twoGroups(b)[0], { observation_id: single.observation_id, operations: [op] }] }, { code: 'OBSERVATION_BUNDLE_MISMATCH', group_index: 1 });
    const other = await newTarget();
    const foreign = await observeBundle(other);
    await expectCode({ ...base, observation_bundle_id: foreign.bundle_id, groups: [{ observation_id: foreign.scopes[1].observation_id, operations: [op] }] }, { code: 'OBSERVATION_TARGET_MISMATCH', group_index: 0 });
    expect(await codes(id)).toHaveLength(17);
    expect(await consumed(b.bundle_id)).toEqual([null, null, null]);
    expect((await head(id)).expected_target_version).toBe(0);
  });

  it('keeps each group inside its own scope-local buffer; a failing group rejects the whole batch and consumes nothing', async () => {
    const id = await newTarget();
    const b = await observeBundle(id);
    const beta = b.scopes[1];
    const len = beta.scope_length as number;
    const base = { target_file_id: id, observation_bundle_id: b.bundle_id, intent: 'i', ...(await head(id)) };
    let n = 0;
    const reject = async (operations: unknown[], code: string | undefined, reason: string) => {
      const res = await call(TOOL, { ...base, client_request_id: `scope-${++n}`, groups: [twoGroups(b)[0], { observation_id: beta.observation_id, operations }] });
      const diagnostic = { ...(code ? { code } : {}), group_index: 1, operation_index: operations.length - 1, observation_id: beta.observation_id };
      expect(res).toMatchObject({ status: 'rejected', failure_reason: reason, diagnostic });
    };
    await reject([{ op: 'span', start: len - 2, end: len + 3, expected_text: '}\n', replace: '' }], 'OPERATION_OUTSIDE_OBSERVED_SCOPE', 'span_out_of_bounds');
    await reject([{ op: 'span', start: 0, end: 0, expected_text: '', replace: '// x\n', expected_before: 'a', expected_after: 'export' }], 'OPERATION_OUTSIDE_OBSERVED_SCOPE', 'span_out_of_bounds');
    await reject([{ op: 'span', start: len, end: len, expected_text: '', replace: ';' }], 'OPERATION_OUTSIDE_OBSERVED_SCOPE', 'span_out_of_bounds');
    const at = beta.text.indexOf(' 2');
    await reject([{ op: 'span', start: at, end: at, expected_text: '', replace: ' 1 +' }], 'OBSERVED_INSERTION_GUARDS_REQUIRED', 'span_expected_text_mismatch');
    // A match counts occurrences in the scope only: "return" occurs once in beta, whatever the rest holds.
    await reject([{ op: 'match', match: 'return', replace: 'yield', occurrence_index: 2 }], undefined, 'disambiguation_invalid');
    expect(await consumed(b.bundle_id)).toEqual([null, null, null]);
    // Sequential inside a group: the second operation sees the first's result, and the scope grows with it.
    const ok = await call(TOOL, {
      ...base, client_request_id: 'scope-ok',
      groups: [{ observation_id: beta.observation_id, operations: [{ op: 'match', match: 'return 2', replace: 'return 2 + 40' }, { op: 'span', start: len + 4, end: len + 5, expected_text: '}', replace: '} // end' }] }],
    });
    expect(ok).toMatchObject({ status: 'accepted', version: 1, group_count: 1 });
    expect((await call('palimpsest_read_target', { target_file_id: id })).text).toBe(SOURCE.replace('return 2;\n}', 'return 2 + 40;\n} // end'));
  });

  it('a bundle goes stale after a concurrent edit (version), after a save (cycle, unchanged text), and when the hash moved', async () => {
    const id = await newTarget();
    const b = await observeBundle(id);
    await call('palimpsest_submit_operations', { target_file_id: id, intent: 'elsewhere', operations: [{ op: 'match', match: 'return 2', replace: 'return 4' }], expected_target_version: 0 });
    const batch = (key: string, bundle: any, guards: object) => call(TOOL, { target_file_id: id, observation_bundle_id: bundle.bundle_id, intent: 'i', groups: twoGroups(bundle), ...guards, client_request_id: key });
    expect(await batch('s-1', b, await head(id))).toMatchObject({ status: 'rejected', failure_reason: 'target_version_mismatch', diagnostic: { code: 'STALE_OBSERVATION_VERSION', group_index: 0, observed_version: 0, current_version: 1 } });

    const fresh = await observeBundle(id);
    const g = await head(id);
    expect(await call('palimpsest_save', { target_file_id: id })).toMatchObject({ status: 'saved' });
    expect(await head(id)).toEqual(g);
    expect(await batch('s-2', fresh, g)).toMatchObject({ status: 'rejected', diagnostic: { code: 'OBSERVATION_CYCLE_MISMATCH', group_index: 0 } });

    const third = await observeBundle(id);
    await testDb.db.query('UPDATE scope_observations SET target_hash = $2 WHERE observation_id = $1', [third.scopes[2].observation_id, '0'.repeat(64)]);
    expect(await batch('s-3', third, g)).toMatchObject({ status: 'rejected', failure_reason: 'target_hash_mismatch', diagnostic: { code: 'STALE_OBSERVATION_HASH', group_index: 1 } });
    await testDb.db.query('UPDATE scope_observations SET target_hash = $2 WHERE observation_id = $1', [third.scopes[2].observation_id, g.expected_current_hash]);
    expect(await codes(id)).toEqual(['STALE_OBSERVATION_HASH', 'OBSERVATION_CYCLE_MISMATCH', 'STALE_OBSERVATION_VERSION']);
    expect(await batch('s-4', third, g)).toMatchObject({ status: 'accepted', version: 2 });
  });

  it('two concurrent batches over one bundle: the row lock serializes them, one is accepted, the other finds its receipts consumed', async () => {
    const id = await newTarget();
    const b = await observeBundle(id);
    const g = await head(id);
    const send = (key: string) => call(TOOL, { target_file_id: id, observation_bundle_id: b.bundle_id, intent: key, groups: twoGroups(b), ...g, client_request_id: key });
    const answers = await Promise.all([send('c-1'), send('c-2')]);
    expect(answers.map((a) => a.status).sort()).toEqual(['accepted', 'rejected']);
    expect(answers.find((a) => a.status === 'rejected')).toMatchObject({ diagnostic: { code: 'OBSERVATION_ALREADY_CONSUMED', group_index: 0 } });
  });

  it('rebuild reproduces the read models, the observations a batch consumed included', async () => {
    expect(await rebuildProjections(testDb.db)).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
  });

  /** Tampering needs the append-only trigger off: what an attacker with the database owner's rights could do. */
  const tamper = async (statement: string, params: unknown[]) => {
    await testDb.db.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
    try {
      await testDb.db.query(statement, params);
    } finally {
      await testDb.db.query('ALTER TABLE events ENABLE TRIGGER events_append_only');
    }
  };

  it.each([
    ['a scope hash of the bundle', `UPDATE events SET data = jsonb_set(data, '{scopes,2,observed_scope_hash}', to_jsonb(repeat('0', 64))) WHERE stream_id = $1 AND event_type = 'BundleObserved'`, /observed_scope_hash/],
    ['an ordinal of the bundle', `UPDATE events SET data = jsonb_set(data, '{scopes,0,ordinal}', '7') WHERE stream_id = $1 AND event_type = 'BundleObserved'`, /bundle and ordinal/],
    ['the bundle a group links', `UPDATE events SET data = jsonb_set(data, '{content}', to_jsonb(regexp_replace(data->>'content', '"bundle_id":"[0-9a-f-]+"', '"bundle_id":"00000000-0000-4000-8000-000000000000"'))) WHERE stream_id = $1 AND event_type = 'ProposalAccepted'`, /bundle/],
    ['a group link removed', `UPDATE events SET data = jsonb_set(data, '{content}', to_jsonb(regexp_replace(data->>'content', '"observation":\\{[^}]*\\}', '"observation":{}'))) WHERE stream_id = $1 AND event_type = 'ProposalAccepted'`, /missing/],
  ])('replay reports replay_protocol_invalid after tampering with %s', async (_what, statement, detail) => {
    const id = await newTarget();
    const b = await observeBundle(id);
    await call(TOOL, { target_file_id: id, observation_bundle_id: b.bundle_id, intent: 'i', groups: twoGroups(b), ...(await head(id)), client_request_id: 't' });
    expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success' });
    await tamper(statement, [`target-${id}`]);
    const report = await call('palimpsest_replay', { target_file_id: id });
    expect(report).toMatchObject({ status: 'failed', failure_reason: 'replay_protocol_invalid' });
    expect(report.failure_detail).toMatch(detail);
  });
});
