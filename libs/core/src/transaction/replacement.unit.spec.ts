import { sha256Hex } from '../text/sha256';
import { applyProposal } from './apply-proposal';
import { parseProposal } from './parse-proposal';
import { applyReplacement } from './replacement';

describe('replacement (tx/3)', () => {
  it('records one replace_all fact over the whole buffer, in code points', () => {
    const buffer = '\u{1F600}old\n';
    const result = applyReplacement(buffer, 'new\r\n\u{20000}');
    expect(result.text).toBe('new\n\u{20000}');
    expect(result.facts).toEqual([
      {
        change_id: 'chg_001',
        change_index: 1,
        span_start: 0,
        span_end: 5,
        matched_chars: 5,
        replacement_chars: 5,
        matched_sha256: sha256Hex(buffer),
        replacement_sha256: sha256Hex('new\n\u{20000}'),
        operation: 'replace_all',
      },
    ]);
    expect(result.annotations).toEqual([{ change_id: 'chg_001', change_index: 1, rationale: null, risk: null }]);
    expect(result.warnings).toEqual([]);
  });

  it('accepts an empty replacement and an empty target', () => {
    expect(applyReplacement('abc', '').text).toBe('');
    expect(applyReplacement('', 'x').facts[0]).toMatchObject({ span_start: 0, span_end: 0, matched_chars: 0, replacement_chars: 1 });
  });

  it('warns when the replacement leaves the text unchanged after canonicalization', () => {
    expect(applyReplacement('a\nb', 'a\r\nb').warnings.map((w) => w.code)).toEqual(['no_op_change', 'no_op_transaction']);
  });

  it('is reached through applyProposal under runtime 0.4.0', () => {
    const parsed = parseProposal('patchdiff-tx/3', { intent: 'i', replacement: 'x' });
    if (!parsed.ok) throw new Error('parse failed');
    const result = applyProposal(parsed.proposal, 'abc');
    expect(result.ok && result.facts[0].operation).toBe('replace_all');
  });
});
