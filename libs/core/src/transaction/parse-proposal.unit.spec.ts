import { MAX_CHANGES_PER_TRANSACTION, defaultChangeId, parseProposal } from './parse-proposal';
import type { ProposalInput } from './parse-proposal';
import type { ProtocolVersion } from './transaction.types';

function accept(protocol: ProtocolVersion, input: ProposalInput) {
  const result = parseProposal(protocol, input);
  if (!result.ok) throw new Error(result.failure.failure_detail);
  return result.proposal;
}

function reject(protocol: ProtocolVersion, input: ProposalInput) {
  const result = parseProposal(protocol, input);
  if (result.ok) throw new Error('expected a shape failure');
  expect(result.failure).toMatchObject({
    failure_reason: 'protocol_invalid',
    validation_stage: 'PROTOCOL_VALIDATION',
    prior_changes: 0,
    failing_buffer: '',
    location: null,
  });
  expect(result.failure.diagnostic.format).toBe(protocol);
  return result.failure;
}

const tx1 = (edits: unknown) => ({ intent: 'i', edits });
const tx2 = (operations: unknown) => ({ intent: 'i', operations });
const matchEdit = { match: 'a', replace: 'b' };
const spanOp = { op: 'span', start: 0, end: 1, expected_text: 'a', replace: 'b' };

describe('parseProposal: accepted shapes', () => {
  it('records tx/1 edits exactly as supplied, under runtime 0.2.2', () => {
    const edit = { match: 'a\r\n', replace: 'b', change_id: null, rationale: 'why', risk: 'low', occurrence_index: 1, anchor_before: null };
    const proposal = accept('patchdiff-tx/1', tx1([edit, matchEdit]));
    expect(proposal).toEqual({
      protocol_version: 'patchdiff-tx/1',
      runtime_version: 'patchdiff-mvp-0.2.2',
      intent: 'i',
      record: { protocol_version: 'patchdiff-tx/1', intent: 'i', edits: [edit, matchEdit] },
      change_count: 2,
    });
    expect((proposal.record.edits as unknown[])[0]).not.toBe(edit);
  });

  it('selects 0.3.0 for plain tx/2 and 0.5.0 when any span carries a context key, even null', () => {
    expect(accept('patchdiff-tx/2', tx2([spanOp, { op: 'match', ...matchEdit }])).runtime_version).toBe('patchdiff-mvp-0.3.0');
    expect(accept('patchdiff-tx/2', tx2([{ ...spanOp, expected_after: null }])).runtime_version).toBe('patchdiff-mvp-0.5.0');
    expect(accept('patchdiff-tx/2', tx2([{ ...spanOp, expected_before: 'x' }])).runtime_version).toBe('patchdiff-mvp-0.5.0');
  });

  it('accepts tx/3 with an empty replacement under runtime 0.4.0', () => {
    expect(accept('patchdiff-tx/3', { intent: 'i', replacement: '' })).toEqual({
      protocol_version: 'patchdiff-tx/3',
      runtime_version: 'patchdiff-mvp-0.4.0',
      intent: 'i',
      record: { protocol_version: 'patchdiff-tx/3', intent: 'i', replacement: '' },
      change_count: 1,
    });
  });

  it('accepts insertions and large safe coordinates', () => {
    accept('patchdiff-tx/2', tx2([{ ...spanOp, start: 3, end: 3, expected_text: '' }]));
    accept('patchdiff-tx/2', tx2([{ ...spanOp, start: 0, end: Number.MAX_SAFE_INTEGER }]));
  });

  it('numbers default change ids by position, widening past 999', () => {
    expect(defaultChangeId(1)).toBe('chg_001');
    expect(defaultChangeId(42)).toBe('chg_042');
    expect(defaultChangeId(1000)).toBe('chg_1000');
  });
});

describe('parseProposal: rejected shapes', () => {
  it.each([
    ['missing intent', { edits: [matchEdit] }, 'missing_field', 'intent'],
    ['non-string intent', { intent: 3, edits: [matchEdit] }, 'invalid_type', 'intent'],
    ['missing edits', { intent: 'i' }, 'missing_field', 'edits'],
    ['edits not an array', tx1({}), 'invalid_type', 'edits'],
    ['empty edits', tx1([]), 'empty_changes', 'edits'],
    ['edit not an object', tx1([matchEdit, 'x']), 'invalid_type', 'edits[1]'],
    ['operations on tx/1, even null', { ...tx1([matchEdit]), operations: null }, 'field_not_allowed_for_format', 'operations'],
    ['replacement on tx/1', { ...tx1([matchEdit]), replacement: '' }, 'field_not_allowed_for_format', 'replacement'],
    ['unknown edit field', tx1([{ ...matchEdit, note: 'x' }]), 'unknown_field', 'edits[0].note'],
    ['op on a tx/1 edit', tx1([{ ...matchEdit, op: 'match' }]), 'field_not_allowed_for_format', 'edits[0].op'],
    ['span field on a tx/1 edit', tx1([{ ...matchEdit, start: 0 }]), 'unknown_field', 'edits[0].start'],
    ['empty match', tx1([{ match: '', replace: 'b' }]), 'empty_match', 'edits[0].match'],
    ['missing replace', tx1([{ match: 'a' }]), 'missing_field', 'edits[0].replace'],
    ['null replace', tx1([{ match: 'a', replace: null }]), 'invalid_type', 'edits[0].replace'],
    ['boolean occurrence_index', tx1([{ ...matchEdit, occurrence_index: true }]), 'invalid_type', 'edits[0].occurrence_index'],
    ['float occurrence_index', tx1([{ ...matchEdit, occurrence_index: 1.5 }]), 'invalid_integer', 'edits[0].occurrence_index'],
    ['string occurrence_index', tx1([{ ...matchEdit, occurrence_index: '1' }]), 'invalid_type', 'edits[0].occurrence_index'],
    ['zero occurrence_index', tx1([{ ...matchEdit, occurrence_index: 0 }]), 'integer_out_of_range', 'edits[0].occurrence_index'],
    ['empty anchor', tx1([{ ...matchEdit, anchor_after: '' }]), 'empty_string', 'edits[0].anchor_after'],
    ['bad risk', tx1([{ ...matchEdit, risk: 'severe' }]), 'invalid_enum', 'edits[0].risk'],
    ['bad change_id', tx1([{ ...matchEdit, change_id: 'has space' }]), 'invalid_change_id', 'edits[0].change_id'],
    ['long change_id', tx1([{ ...matchEdit, change_id: 'x'.repeat(65) }]), 'invalid_change_id', 'edits[0].change_id'],
    ['numeric rationale', tx1([{ ...matchEdit, rationale: 1 }]), 'invalid_type', 'edits[0].rationale'],
  ])('tx/1: %s', (_name, input, code, path) => {
    expect(reject('patchdiff-tx/1', input as ProposalInput).diagnostic).toMatchObject({ code, path });
  });

  it.each([
    ['missing op', tx2([{ match: 'a', replace: 'b' }]), 'missing_field', 'operations[0].op'],
    ['unknown op', tx2([{ ...spanOp, op: 'regex' }]), 'invalid_op', 'operations[0].op'],
    ['edits on tx/2', { ...tx2([spanOp]), edits: [] }, 'field_not_allowed_for_format', 'edits'],
    ['negative start', tx2([{ ...spanOp, start: -1 }]), 'integer_out_of_range', 'operations[0].start'],
    ['boolean end', tx2([{ ...spanOp, end: false }]), 'invalid_type', 'operations[0].end'],
    ['float start', tx2([{ ...spanOp, start: 0.5 }]), 'invalid_integer', 'operations[0].start'],
    ['missing start', tx2([{ op: 'span', end: 1, expected_text: 'a', replace: 'b' }]), 'missing_field', 'operations[0].start'],
    ['null end', tx2([{ ...spanOp, end: null }]), 'invalid_type', 'operations[0].end'],
    ['end before start', tx2([{ ...spanOp, start: 2, end: 1 }]), 'span_end_before_start', 'operations[0].end'],
    ['unsafe integer', tx2([{ ...spanOp, end: 2 ** 60 }]), 'unsafe_integer', 'operations[0].end'],
    ['above 2^63-1', tx2([{ ...spanOp, end: 2 ** 64 }]), 'integer_out_of_range', 'operations[0].end'],
    ['occurrence_index on a span', tx2([{ ...spanOp, occurrence_index: 1 }]), 'field_not_allowed_for_operation', 'operations[0].occurrence_index'],
    ['anchor on a span', tx2([{ ...spanOp, anchor_before: 'x' }]), 'field_not_allowed_for_operation', 'operations[0].anchor_before'],
    ['span context on a match', tx2([{ op: 'match', ...matchEdit, expected_after: 'x' }]), 'field_not_allowed_for_operation', 'operations[0].expected_after'],
    ['unknown span field', tx2([{ ...spanOp, length: 1 }]), 'unknown_field', 'operations[0].length'],
    ['empty expected_before', tx2([{ ...spanOp, expected_before: '' }]), 'empty_string', 'operations[0].expected_before'],
    ['numeric expected_after', tx2([{ ...spanOp, expected_after: 4 }]), 'invalid_type', 'operations[0].expected_after'],
    ['missing expected_text', tx2([{ op: 'span', start: 0, end: 0, replace: 'b' }]), 'missing_field', 'operations[0].expected_text'],
  ])('tx/2: %s', (_name, input, code, path) => {
    expect(reject('patchdiff-tx/2', input as ProposalInput).diagnostic).toMatchObject({ code, path });
  });

  it.each([
    ['missing replacement', { intent: 'i' }, 'missing_field', 'replacement'],
    ['null replacement', { intent: 'i', replacement: null }, 'invalid_type', 'replacement'],
    ['edits on tx/3, even null', { intent: 'i', replacement: '', edits: null }, 'field_not_allowed_for_format', 'edits'],
  ])('tx/3: %s', (_name, input, code, path) => {
    expect(reject('patchdiff-tx/3', input as ProposalInput).diagnostic).toMatchObject({ code, path });
  });

  it('names the failing change when its id is determinable', () => {
    expect(reject('patchdiff-tx/1', tx1([matchEdit, { match: '', replace: '' }])).failed_change_id).toBe('chg_002');
    expect(reject('patchdiff-tx/1', tx1([{ ...matchEdit, change_id: 'c1', risk: 1 }])).failed_change_id).toBe('c1');
    expect(reject('patchdiff-tx/1', tx1([{ ...matchEdit, change_id: '!' }])).failed_change_id).toBeNull();
    expect(reject('patchdiff-tx/1', tx1('x')).failed_change_id).toBeNull();
  });

  it('writes details as sentences naming the path', () => {
    const failure = reject('patchdiff-tx/1', tx1([{ ...matchEdit, occurrence_index: true }]));
    expect(failure.failure_detail).toBe('edits[0].occurrence_index must be an integer >= 1 or null; got a boolean.');
  });

  it('rejects duplicate change ids, explicit or defaulted', () => {
    const explicit = reject('patchdiff-tx/1', tx1([{ ...matchEdit, change_id: 'x' }, { ...matchEdit, change_id: 'x' }]));
    expect(explicit.diagnostic).toMatchObject({ code: 'duplicate_change_id', path: 'edits[1].change_id' });
    expect(explicit.failed_change_id).toBe('x');
    const defaulted = reject('patchdiff-tx/1', tx1([{ ...matchEdit, change_id: 'chg_002' }, matchEdit]));
    expect(defaulted.diagnostic).toMatchObject({ code: 'duplicate_change_id', path: 'edits[1].change_id' });
  });

  it('caps a transaction at MAX_CHANGES_PER_TRANSACTION changes', () => {
    const edits = Array.from({ length: MAX_CHANGES_PER_TRANSACTION }, () => matchEdit);
    expect(accept('patchdiff-tx/1', tx1(edits)).change_count).toBe(MAX_CHANGES_PER_TRANSACTION);
    const over = reject('patchdiff-tx/1', tx1([...edits, matchEdit]));
    expect(over.diagnostic).toMatchObject({ code: 'too_many_changes', path: 'edits' });
  });

  it('rejects an unknown protocol', () => {
    const result = parseProposal('patchdiff-tx/9' as ProtocolVersion, tx1([matchEdit]));
    expect(result.ok || result.failure.diagnostic.code).toBe('unsupported_protocol');
  });
});
