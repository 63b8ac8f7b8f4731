import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

const H0 = 'b22ebf774cb2d9b12dc23d13ac860581d994ab579f4fb470b6f79d0b43a15ff2';

describe(`submissions end to end on ${describeBackend}`, () => {
  let h: AppHarness;
  let id: string;
  const attempts = () => h.count('SELECT count(*) FROM attempts WHERE target_id = $1', [id]);

  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());
  beforeEach(async () => {
    const created = await h.call('palimpsest_initialize_target', {
      filename: 'doc.md',
      content: 'alpha beta alpha\r\n',
      content_type: 'text/markdown',
    });
    id = created.target_file_id;
  });

  it('reproduces the seed golden vectors: upload, ambiguous rejection, accepted occurrence 2', async () => {
    const t = await h.call('palimpsest_get_target', { target_file_id: id });
    expect(t).toMatchObject({ status: 'ok', version: 0, current_hash: H0, target_type: 'text/markdown' });
    expect(t.source_line_endings).toMatchObject({ style: 'crlf', crlf: 1, source_code_points: 18 });
    expect(t.source_line_endings.source_sha256.slice(0, 8)).toBe('0e66cb5c');

    const rejected = await h.call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'Rename alpha', expected_target_version: 0, client_request_id: 'req-001',
      edits: [{ match: 'alpha', replace: 'gamma' }],
    });
    expect(rejected).toMatchObject({
      status: 'rejected', failure_reason: 'match_ambiguous', failed_change_id: 'chg_001',
      before_hash: H0, after_hash: null, current_version: 0, current_hash: H0, deduplicated: false,
      client_request_id: 'req-001',
      validity: { protocol_valid: true, transaction_valid: false },
    });
    expect(rejected.diagnostic.exact_candidates.candidates.map((c: any) => [c.start, c.end])).toEqual([[0, 5], [11, 16]]);

    const accepted = await h.call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'Rename alpha', expected_target_version: 0, client_request_id: 'req-002',
      edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }],
    });
    expect(accepted).toMatchObject({
      status: 'accepted', before_hash: H0, version: 1, current_version: 1, manifest_entries_added: 1,
      warnings: [], warning_count: 0, deduplicated: false, client_request_id: 'req-002',
    });
    expect(accepted.after_hash.slice(0, 8)).toBe('adf7157c');
    expect(accepted.current_hash).toBe(accepted.after_hash);
    expect(accepted.evidence.changes[0]).toMatchObject({ span_start: 11, span_end: 16, matched_chars: 5, replacement_chars: 5 });

    const exported = await h.call('palimpsest_export_target', { target_file_id: id, format: 'original_eol' });
    expect(exported.content).toBe('alpha beta gamma\r\n');
  });

  it('recovers the identical keyed request with deduplicated: true and the current state', async () => {
    const args = {
      target_file_id: id, intent: 'Rename', expected_target_version: 0, client_request_id: 'k-1',
      edits: [{ match: 'beta', replace: 'BETA' }],
    };
    const first = await h.call('palimpsest_submit_edits', args);
    await h.call('palimpsest_submit_edits', { ...args, client_request_id: 'k-2', expected_target_version: 1, edits: [{ match: 'BETA', replace: 'b' }] });
    const again = await h.call('palimpsest_submit_edits', args);
    expect(again).toMatchObject({ status: 'accepted', attempt_id: first.attempt_id, version: 1, after_hash: first.after_hash, current_version: 2, deduplicated: true });
    expect(again.current_hash).not.toBe(first.after_hash);
    expect(await attempts()).toBe(2);
  });

  it('audits a different proposal under a used key as request_key_conflict, keeping the binding', async () => {
    const base = { target_file_id: id, intent: 'x', expected_target_version: 0, client_request_id: 'k-9' };
    const first = await h.call('palimpsest_submit_edits', { ...base, edits: [{ match: 'beta', replace: 'B' }] });
    const conflict = await h.call('palimpsest_submit_edits', { ...base, edits: [{ match: 'beta', replace: 'C', rationale: 'why' }] });
    expect(conflict).toMatchObject({
      status: 'rejected', failure_reason: 'context_invalid', client_request_id: 'k-9',
      diagnostic: { code: 'request_key_conflict', existing_attempt_id: first.attempt_id },
    });
    expect(conflict.attempt_id).not.toBe(first.attempt_id);
    const again = await h.call('palimpsest_submit_edits', { ...base, edits: [{ match: 'beta', replace: 'B' }] });
    expect(again).toMatchObject({ deduplicated: true, attempt_id: first.attempt_id });
    expect(await attempts()).toBe(2);
  });

  it('writes an attempt row exactly where the seed says, and nowhere else', async () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>, number][] = [
      ['boolean version', { expected_target_version: true }, { status: 'rejected', failure_reason: 'context_invalid' }, 1],
      ['float occurrence index', { edits: [{ match: 'alpha', replace: 'x', occurrence_index: 1.5 }] }, { status: 'rejected', failure_reason: 'protocol_invalid' }, 1],
      ['unknown field in an edit', { edits: [{ match: 'alpha', replace: 'x', colour: 1 }] }, { status: 'rejected', failure_reason: 'protocol_invalid' }, 1],
      ['lone surrogate', { edits: [{ match: 'alpha', replace: '\ud800' }] }, { status: 'rejected', failure_reason: 'target_encoding_invalid' }, 1],
      ['unknown top-level argument', { colour: 'red' }, { status: 'invalid_argument', code: 'unknown_argument' }, 0],
      ['non-boolean include_correlation_id', { include_correlation_id: 'yes' }, { status: 'invalid_argument', code: 'invalid_include_correlation_id' }, 0],
      ['malformed target UUID', { target_file_id: 'nope' }, { status: 'invalid_argument', code: 'invalid_target_file_id' }, 0],
      ['unknown target', { target_file_id: '00000000-0000-4000-8000-000000000000' }, { status: 'not_found' }, 0],
    ];
    for (const [title, override, expected, rows] of cases) {
      const before = await h.count('SELECT count(*) FROM attempts');
      const r = await h.call('palimpsest_submit_edits', {
        target_file_id: id, intent: 'x', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'x', occurrence_index: 1 }], ...override,
      });
      expect({ title, ...r }).toMatchObject({ title, ...expected });
      expect({ title, rows: (await h.count('SELECT count(*) FROM attempts')) - before }).toEqual({ title, rows });
    }
  });

  it('refuses a missing required argument before the tool runs', async () => {
    const r = await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', expected_target_version: 0 });
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'missing_argument', missing_arguments: ['edits'] });
    expect(await attempts()).toBe(0);
  });

  it('answers an oversized replacement with replacement_too_large and no row', async () => {
    const r = await h.call('palimpsest_submit_replacement', {
      target_file_id: id, intent: 'big', expected_target_version: 0, replacement: 'x'.repeat(1_000_001),
    });
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'replacement_too_large', attempt_id: null });
    expect(r.diagnostic).toMatchObject({ limit_exceeded: 'raw_code_points', canonical_would_fit: false });
    expect(await attempts()).toBe(0);
  });

  it('uses code points for spans and facts with astral characters', async () => {
    const astral = await h.target('😀 𠀀 alpha\n');
    const r = await h.call('palimpsest_submit_operations', {
      target_file_id: astral, intent: 'span', expected_target_version: 0,
      operations: [{ op: 'span', start: 4, end: 9, expected_text: 'alpha', replace: 'ω' }],
    });
    expect(r).toMatchObject({ status: 'accepted' });
    expect(r.evidence.changes[0]).toMatchObject({ span_start: 4, span_end: 9, matched_chars: 5, replacement_chars: 1, operation: 'span' });
    const read = await h.call('palimpsest_read_target', { target_file_id: astral, start: 2, length: 3 });
    expect(read).toMatchObject({ text: '𠀀 ω', start: 2, end: 5, total_chars: 6 });
  });

  it('returns a fresh correlation id only when asked', async () => {
    const args = { target_file_id: id, intent: 'x', expected_target_version: 0, edits: [{ match: 'beta', replace: 'b' }], include_correlation_id: true };
    const r = await h.call('palimpsest_submit_edits', args);
    expect(r.correlation_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
