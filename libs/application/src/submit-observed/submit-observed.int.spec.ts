import { createHash, randomUUID } from 'node:crypto';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const SOURCE = 'export function alpha(x: number) {\n  return x + 1;\n}\n\nexport function beta() {\n  return 2;\n}\n';
const TOOL = 'palimpsest_submit_observed_operations';

describe(`palimpsest_submit_observed_operations (single form) on ${describeBackend}`, () => {
  let testDb: TestDb;
  let ctx: AppContext;
  const call = (name: string, args: unknown) => dispatch(ctx, name, args) as Promise<Record<string, any>>;
  const submit = (args: Record<string, unknown>) => call(TOOL, args);
  const newTarget = async (content = SOURCE) => (await call('palimpsest_initialize_target', { filename: 'mod.ts', content, content_type: 'text/typescript' })).target_file_id as string;
  const head = async (id: string) => {
    const t = await call('palimpsest_get_target', { target_file_id: id });
    return { expected_target_version: t.version as number, expected_current_hash: t.current_hash as string };
  };
  const observe = (id: string, symbol_name = 'alpha') => call('palimpsest_observe_scope', { target_file_id: id, symbol_name, kind: 'function' });
  /** A span over `needle` (BMP text: code points are UTF-16 units). */
  const spanOf = (text: string, needle: string, replace: string) => {
    const start = text.indexOf(needle);
    return { op: 'span', start, end: start + needle.length, expected_text: needle, replace };
  };
  const codes = async (id: string) => (await call('palimpsest_get_attempt_log', { target_file_id: id, status: 'rejected', limit: 100, detail: true })).entries.map((e: any) => e.diagnostic?.code);

  beforeAll(async () => {
    testDb = await createTestDb();
    ctx = appContext(testDb.db, { workspace: null });
  });
  afterAll(() => testDb.dispose());

  it('accepts an in-scope edit: recorded under the observed runtime, ledgered, the observation consumed, replay succeeds', async () => {
    const id = await newTarget();
    const obs = await observe(id);
    expect(obs).toMatchObject({ status: 'observed', scope_start: 0 });
    const res = await submit({ target_file_id: id, observation_id: obs.observation_id, intent: 'bump', operations: [spanOf(SOURCE, 'x + 1', 'x + 2')], ...(await head(id)), client_request_id: 'obs-1' });
    expect(res).toMatchObject({ status: 'accepted', version: 1, manifest_entries_added: 1 });
    expect((await call('palimpsest_read_target', { target_file_id: id })).text).toBe(SOURCE.replace('x + 1', 'x + 2'));
    const log = await call('palimpsest_get_attempt_log', { target_file_id: id, include_content: true, detail: true });
    expect(log.entries[0]).toMatchObject({ status: 'accepted', protocol_version: 'patchdiff-tx/2', runtime_version: 'palimpsest-observed-r1' });
    const ledger = await call('palimpsest_get_manifest_ledger', { target_file_id: id });
    expect(ledger.entries).toHaveLength(1);
    const { rows } = await testDb.db.query('SELECT consumed_attempt_id::text AS a, consumed_log_sequence FROM scope_observations WHERE observation_id = $1', [obs.observation_id]);
    expect(rows[0]).toMatchObject({ a: res.attempt_id });
    expect(rows[0].consumed_log_sequence).not.toBeNull();
    expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', accepted_transactions_replayed: 1, materialized_state_matches: true });

    // Key recovery precedes every observation and guard check: the resend answers the recorded outcome.
    const again = await submit({ target_file_id: id, observation_id: obs.observation_id, intent: 'bump', operations: [spanOf(SOURCE, 'x + 1', 'x + 2')], expected_target_version: 0, expected_current_hash: sha256(SOURCE), client_request_id: 'obs-1' });
    expect(again).toMatchObject({ status: 'accepted', deduplicated: true, attempt_id: res.attempt_id });
    // A consumed observation is refused (before its stale version), and recorded.
    const text = SOURCE.replace('x + 1', 'x + 2');
    const reused = await submit({ target_file_id: id, observation_id: obs.observation_id, intent: 'again', operations: [spanOf(text, 'x + 2', 'x + 3')], ...(await head(id)) });
    expect(reused).toMatchObject({ status: 'rejected', failure_reason: 'context_invalid', diagnostic: { code: 'OBSERVATION_ALREADY_CONSUMED', consumed_attempt_id: res.attempt_id } });
    expect(await codes(id)).toEqual(['OBSERVATION_ALREADY_CONSUMED']);
  });

  it('refuses, audited, a missing, malformed, unknown or foreign observation and a missing guard', async () => {
    const id = await newTarget();
    const other = await newTarget();
    const foreign = await observe(other);
    const op = [spanOf(SOURCE, 'x + 1', 'x + 2')];
    const g = await head(id);
    expect(await submit({ target_file_id: id, intent: 'i', operations: op, ...g })).toMatchObject({ status: 'rejected', diagnostic: { code: 'OBSERVATION_REQUIRED' } });
    expect(await submit({ target_file_id: id, observation_id: 'not-a-uuid', intent: 'i', operations: op, ...g })).toMatchObject({ status: 'rejected', diagnostic: { code: 'INVALID_OBSERVATION_ID' } });
    expect(await submit({ target_file_id: id, observation_id: randomUUID(), intent: 'i', operations: op, ...g })).toMatchObject({ status: 'rejected', diagnostic: { code: 'UNKNOWN_OBSERVATION_ID' } });
    expect(await submit({ target_file_id: id, observation_id: foreign.observation_id, intent: 'i', operations: op, ...g })).toMatchObject({ status: 'rejected', diagnostic: { code: 'OBSERVATION_TARGET_MISMATCH' } });
    const obs = await observe(id);
    expect(await submit({ target_file_id: id, observation_id: obs.observation_id, intent: 'i', operations: op, expected_target_version: 0 })).toMatchObject({ status: 'rejected', diagnostic: { code: 'missing_guard', argument: 'expected_current_hash' } });
    expect(await codes(id)).toEqual(['missing_guard', 'OBSERVATION_TARGET_MISMATCH', 'UNKNOWN_OBSERVATION_ID', 'INVALID_OBSERVATION_ID', 'OBSERVATION_REQUIRED']);
    expect((await head(id)).expected_target_version).toBe(0);
    // Single and batch fields cannot be mixed (the batch form: submit-observed-batch.int.spec.ts).
    expect(await submit({ target_file_id: id, observation_id: obs.observation_id, groups: [], intent: 'i', ...g })).toMatchObject({ status: 'rejected', diagnostic: { code: 'conflicting_arguments', arguments: ['observation_id'] } });
  });

  it('an observation goes stale after a concurrent edit (version) and closes after a save, even with unchanged text', async () => {
    const id = await newTarget();
    const obs = await observe(id);
    await call('palimpsest_submit_operations', { target_file_id: id, intent: 'elsewhere', operations: [spanOf(SOURCE, 'return 2', 'return 3')], expected_target_version: 0 });
    const stale = await submit({ target_file_id: id, observation_id: obs.observation_id, intent: 'i', operations: [spanOf(SOURCE, 'x + 1', 'x + 2')], ...(await head(id)) });
    expect(stale).toMatchObject({ status: 'rejected', failure_reason: 'target_version_mismatch', diagnostic: { code: 'STALE_OBSERVATION_VERSION', observed_version: 0, current_version: 1 } });

    const fresh = await observe(id);
    const g = await head(id);
    expect(await call('palimpsest_save', { target_file_id: id })).toMatchObject({ status: 'saved' });
    expect(await head(id)).toEqual(g);
    const closed = await submit({ target_file_id: id, observation_id: fresh.observation_id, intent: 'i', operations: [spanOf(SOURCE, 'x + 1', 'x + 2')], ...g });
    expect(closed).toMatchObject({ status: 'rejected', diagnostic: { code: 'OBSERVATION_CYCLE_MISMATCH' } });
    expect(await codes(id)).toEqual(['OBSERVATION_CYCLE_MISMATCH', 'STALE_OBSERVATION_VERSION']);
  });

  it('keeps every operation inside the observed scope; insertions strictly inside with both guards inside', async () => {
    const id = await newTarget();
    const obs = await observe(id);
    const g = await head(id);
    const { scope_start: s, scope_end: e } = obs;
    const reject = async (operations: unknown[], code: string, reason: string) => {
      const res = await submit({ target_file_id: id, observation_id: obs.observation_id, intent: 'i', operations, ...g });
      expect(res).toMatchObject({ status: 'rejected', failure_reason: reason, diagnostic: { code } });
    };
    await reject([spanOf(SOURCE, 'return 2', 'return 3')], 'OPERATION_OUTSIDE_OBSERVED_SCOPE', 'span_out_of_bounds');
    await reject([{ op: 'match', match: 'return 2', replace: 'return 3' }], 'OPERATION_OUTSIDE_OBSERVED_SCOPE', 'span_out_of_bounds');
    await reject([{ op: 'span', start: s, end: s, expected_text: '', replace: '// x\n', expected_before: 'a', expected_after: 'export' }], 'OPERATION_OUTSIDE_OBSERVED_SCOPE', 'span_out_of_bounds');
    await reject([{ op: 'span', start: e, end: e, expected_text: '', replace: ';', expected_before: '}', expected_after: '\n' }], 'OPERATION_OUTSIDE_OBSERVED_SCOPE', 'span_out_of_bounds');
    const at = SOURCE.indexOf(' + 1');
    await reject([{ op: 'span', start: at, end: at, expected_text: '', replace: ' * 2' }], 'OBSERVED_INSERTION_GUARDS_REQUIRED', 'span_expected_text_mismatch');
    // A guard reaching past the scope's end crosses it.
    await reject([{ op: 'span', start: e - 1, end: e - 1, expected_text: '', replace: ' ', expected_before: '\n', expected_after: '}\n' }], 'OPERATION_OUTSIDE_OBSERVED_SCOPE', 'span_out_of_bounds');
    // Growing the scope moves its end: an edit of the new end is still inside.
    const grown = SOURCE.replace('x + 1', 'x + 1 + 1000');
    const ok = await submit({
      target_file_id: id, observation_id: obs.observation_id, intent: 'grow', ...g,
      operations: [{ op: 'span', start: at + 4, end: at + 4, expected_text: '', replace: ' + 1000', expected_before: ' + 1', expected_after: ';' }, spanOf(grown.slice(0, e + 7), '}', '} // end')],
    });
    expect(ok).toMatchObject({ status: 'accepted', version: 1 });
    expect((await call('palimpsest_read_target', { target_file_id: id })).text).toBe(grown.replace('1000;\n}', '1000;\n} // end'));
    expect(await codes(id)).toHaveLength(6);
  });

  it('two concurrent submissions of one observation: exactly one is accepted, the other finds it consumed', async () => {
    const id = await newTarget();
    const obs = await observe(id);
    const g = await head(id);
    const send = (replace: string) => submit({ target_file_id: id, observation_id: obs.observation_id, intent: replace, operations: [spanOf(SOURCE, 'x + 1', replace)], ...g });
    const answers = await Promise.all([send('x + 2'), send('x + 3')]);
    expect(answers.map((a) => a.status).sort()).toEqual(['accepted', 'rejected']);
    expect(answers.find((a) => a.status === 'rejected')).toMatchObject({ diagnostic: { code: 'OBSERVATION_ALREADY_CONSUMED' } });
  });

  it('rebuild reproduces the read models, consumed observations included', async () => {
    const report = await rebuildProjections(testDb.db);
    expect(report).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
  });

  it('replay fails with replay_protocol_invalid when a recorded scope hash was altered', async () => {
    const id = await newTarget();
    const obs = await observe(id);
    await submit({ target_file_id: id, observation_id: obs.observation_id, intent: 'bump', operations: [spanOf(SOURCE, 'x + 1', 'x + 2')], ...(await head(id)) });
    expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success' });
    // Tampering needs the append-only trigger off: what an attacker with the database owner's rights could do.
    await testDb.db.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
    try {
      await testDb.db.query(`UPDATE events SET data = jsonb_set(data, '{observed_scope_hash}', to_jsonb(repeat('0', 64))) WHERE stream_id = $1 AND event_type = 'ScopeObserved'`, [`target-${id}`]);
    } finally {
      await testDb.db.query('ALTER TABLE events ENABLE TRIGGER events_append_only');
    }
    const report = await call('palimpsest_replay', { target_file_id: id });
    expect(report).toMatchObject({ status: 'failed', failure_reason: 'replay_protocol_invalid' });
    expect(report.failure_detail).toMatch(/observed_scope_hash/);
  });
});
