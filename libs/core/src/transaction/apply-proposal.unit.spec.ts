import fc from 'fast-check';
import { applyProposal } from './apply-proposal';
import { parseProposal } from './parse-proposal';
import type { ProposalInput } from './parse-proposal';
import { canonicalJson } from './record-codec';
import type { ProtocolVersion, TxResult } from './transaction.types';

function parsed(protocol: ProtocolVersion, input: ProposalInput) {
  const result = parseProposal(protocol, input);
  if (!result.ok) throw new Error(result.failure.failure_detail);
  return result.proposal;
}

function failure(result: TxResult) {
  if (result.ok) throw new Error(`expected a rejection, got ${result.text}`);
  return result;
}

const spanRecord = (extra: Record<string, unknown> = {}) => ({
  protocol_version: 'patchdiff-tx/2',
  intent: 'i',
  operations: [{ op: 'span', start: 0, end: 1, expected_text: 'a', replace: 'b', ...extra }],
});

describe('applyProposal: profile dispatch', () => {
  it.each([
    ['patchdiff-tx/1', 'patchdiff-mvp-0.2.2', { intent: 'i', edits: [{ match: 'a', replace: 'b' }] }],
    ['patchdiff-tx/2', 'patchdiff-mvp-0.3.0', { intent: 'i', operations: [{ op: 'match', match: 'a', replace: 'b' }] }],
    ['patchdiff-tx/2', 'patchdiff-mvp-0.5.0', { intent: 'i', operations: [{ op: 'match', match: 'a', replace: 'b' }] }],
    ['patchdiff-tx/3', 'patchdiff-mvp-0.4.0', { intent: 'i', replacement: 'bc' }],
  ])('applies %s under %s', (protocol, runtime, body) => {
    const result = applyProposal({ protocol_version: protocol, runtime_version: runtime, record: { protocol_version: protocol, ...body } }, 'ac');
    expect(result.ok && result.text).toBe('bc');
  });

  it.each([
    ['patchdiff-tx/1', 'patchdiff-mvp-0.3.0'],
    ['patchdiff-tx/2', 'patchdiff-mvp-0.2.2'],
    ['patchdiff-tx/3', 'patchdiff-mvp-0.5.0'],
    ['patchdiff-tx/9', 'patchdiff-mvp-0.2.2'],
  ])('refuses the unsupported pair %s / %s', (protocol, runtime) => {
    const result = failure(applyProposal({ protocol_version: protocol, runtime_version: runtime, record: {} }, 'abc'));
    expect(result.failure_reason).toBe('protocol_invalid');
    expect(result.diagnostic).toMatchObject({ code: 'unsupported_profile', protocol_version: protocol, runtime_version: runtime });
    expect(result.failing_buffer).toBe('abc');
  });

  it('refuses a 0.3.0 record carrying span context keys, even null', () => {
    const result = failure(
      applyProposal({ protocol_version: 'patchdiff-tx/2', runtime_version: 'patchdiff-mvp-0.3.0', record: spanRecord({ expected_before: null }) }, 'abc'),
    );
    expect(result.diagnostic.code).toBe('unsupported_profile');
    const ok = applyProposal({ protocol_version: 'patchdiff-tx/2', runtime_version: 'patchdiff-mvp-0.5.0', record: spanRecord({ expected_before: null }) }, 'abc');
    expect(ok.ok && ok.text).toBe('bbc');
  });

  it('refuses a record whose protocol disagrees with the recorded one, or with unknown fields', () => {
    const mismatched = applyProposal({ protocol_version: 'patchdiff-tx/1', runtime_version: 'patchdiff-mvp-0.2.2', record: spanRecord() }, 'abc');
    expect(failure(mismatched).diagnostic.code).toBe('unsupported_profile');
    const unknown = applyProposal(
      { protocol_version: 'patchdiff-tx/2', runtime_version: 'patchdiff-mvp-0.3.0', record: { ...spanRecord(), extra: 1 } },
      'abc',
    );
    expect(failure(unknown).diagnostic).toMatchObject({ code: 'unknown_field', path: 'extra' });
  });

  it('replays a stored record (canonical JSON round trip) to the same result', () => {
    const proposal = parsed('patchdiff-tx/2', {
      intent: 'i',
      operations: [
        { op: 'span', start: 4, end: 5, expected_text: 'e', replace: 'E', expected_after: '\r\n', rationale: 'r', risk: 'high' },
        { op: 'match', match: 'abc', replace: 'x\r\ny', change_id: 'm' },
      ],
    });
    const stored = JSON.parse(canonicalJson(proposal.record)) as Record<string, unknown>;
    const live = applyProposal(proposal, 'abcde\nabd');
    const replayed = applyProposal({ ...proposal, record: stored }, 'abcde\nabd');
    expect(replayed).toEqual(live);
    expect(live.ok && live.text).toBe('x\nydE\nabd');
    expect(live.ok && live.annotations).toEqual([
      { change_id: 'chg_001', change_index: 1, rationale: 'r', risk: 'high' },
      { change_id: 'm', change_index: 2, rationale: null, risk: null },
    ]);
  });
});

describe('applyProposal: warnings', () => {
  it('warns about a no-op change and a no-op transaction', () => {
    const result = applyProposal(parsed('patchdiff-tx/1', { intent: 'i', edits: [{ match: 'b', replace: 'b', change_id: 'same' }] }), 'abc');
    expect(result.ok && result.warnings).toEqual([
      { code: 'no_op_change', detail: expect.stringContaining('same'), change_id: 'same', change_index: 1 },
      { code: 'no_op_transaction', detail: expect.stringContaining('version guard') },
    ]);
  });

  it('warns about a transaction that restores the starting text without no-op changes', () => {
    const edits = [
      { match: 'a', replace: 'z' },
      { match: 'z', replace: 'a' },
    ];
    const result = applyProposal(parsed('patchdiff-tx/1', { intent: 'i', edits }), 'abc');
    expect(result.ok && result.warnings.map((w) => w.code)).toEqual(['no_op_transaction']);
  });

  it('has no warnings for an ordinary change', () => {
    const result = applyProposal(parsed('patchdiff-tx/1', { intent: 'i', edits: [{ match: 'a', replace: 'z' }] }), 'abc');
    expect(result.ok && result.warnings).toEqual([]);
  });
});

describe('applyProposal: determinism', () => {
  const alphabet = fc.constantFrom('a', 'b', '\n', '\r', '\u{1F600}', '\u{20000}');
  const str = (min: number, max: number) => fc.array(alphabet, { minLength: min, maxLength: max }).map((c) => c.join(''));
  const edit = fc.record(
    { match: str(1, 3), replace: str(0, 3), occurrence_index: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }), anchor_before: fc.option(str(1, 2), { nil: undefined }) },
    { requiredKeys: ['match', 'replace'] },
  );

  it('gives identical results for identical inputs, and the record round trip changes nothing', () => {
    fc.assert(
      fc.property(str(0, 30), fc.array(edit, { minLength: 1, maxLength: 4 }), (text, edits) => {
        const buffer = text.replace(/\r\n?/g, '\n');
        const proposal = parsed('patchdiff-tx/1', { intent: 'i', edits });
        const first = applyProposal(proposal, buffer, { observedVersion: 3, observedHash: 'h' });
        const second = applyProposal(proposal, buffer, { observedVersion: 3, observedHash: 'h' });
        const replay = applyProposal({ ...proposal, record: JSON.parse(canonicalJson(proposal.record)) }, buffer, { observedVersion: 3, observedHash: 'h' });
        expect(second).toEqual(first);
        expect(replay).toEqual(first);
      }),
    );
  });
});
