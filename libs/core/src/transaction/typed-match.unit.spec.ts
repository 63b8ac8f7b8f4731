import fc from 'fast-check';
import { sha256Hex } from '../text/sha256';
import { applyProposal } from './apply-proposal';
import { parseProposal } from './parse-proposal';
import type { ProposalInput } from './parse-proposal';
import type { ProtocolVersion, TxResult } from './transaction.types';
import { MATCH_AMBIGUOUS_DETAIL, countOccurrences } from './typed-match';

const CTX = { observedVersion: 0, observedHash: 'b22ebf77' };

function run(protocol: ProtocolVersion, input: ProposalInput, buffer: string): TxResult {
  const parsed = parseProposal(protocol, input);
  if (!parsed.ok) throw new Error(parsed.failure.failure_detail);
  return applyProposal(parsed.proposal, buffer, CTX);
}

const tx1 = (edits: Record<string, unknown>[], buffer: string) => run('patchdiff-tx/1', { intent: 't', edits }, buffer);

function failure(result: TxResult) {
  if (result.ok) throw new Error(`expected a rejection, got ${result.text}`);
  return result;
}

function success(result: TxResult) {
  if (!result.ok) throw new Error(`${result.failure_reason}: ${result.failure_detail}`);
  return result;
}

describe('typed match: seed golden vectors', () => {
  const buffer = 'alpha beta alpha\n';

  it('occurrence_index 2 replaces the second alpha with the seed facts', () => {
    const result = success(tx1([{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }], buffer));
    expect(result.text).toBe('alpha beta gamma\n');
    expect(sha256Hex(buffer).startsWith('b22ebf77')).toBe(true);
    expect(sha256Hex(result.text).startsWith('adf7157c')).toBe(true);
    expect(result.facts).toHaveLength(1);
    const fact = result.facts[0];
    expect(fact).toEqual({
      change_id: 'chg_001',
      change_index: 1,
      span_start: 11,
      span_end: 16,
      matched_chars: 5,
      replacement_chars: 5,
      matched_sha256: expect.stringMatching(/^8ed3f6ad/),
      replacement_sha256: expect.stringMatching(/^be9d587d/),
    });
    expect('operation' in fact).toBe(false);
    expect(result.annotations).toEqual([{ change_id: 'chg_001', change_index: 1, rationale: null, risk: null }]);
    expect(result.warnings).toEqual([]);
  });

  it('an unselected alpha is match_ambiguous with the seed exact candidates', () => {
    const result = failure(tx1([{ match: 'alpha', replace: 'gamma' }], buffer));
    expect(result.failure_reason).toBe('match_ambiguous');
    expect(result.failure_detail).toBe(MATCH_AMBIGUOUS_DETAIL);
    expect(result.failed_change_id).toBe('chg_001');
    expect(result.validation_stage).toBe('transaction_applicability');
    expect(result.location).toEqual({ offset: 0 });
    expect(result.diagnostic).toEqual({
      format: 'patchdiff-tx/1',
      occurrence_count: 2,
      exact_candidates: {
        kind: 'exact_occurrences',
        occurrence_count: 2,
        returned_count: 2,
        candidates: [
          { occurrence_index: 1, start: 0, end: 5, before: '', match_preview: 'alpha', match_truncated: false, after: ' beta alpha\n' },
          { occurrence_index: 2, start: 11, end: 16, before: 'alpha beta ', match_preview: 'alpha', match_truncated: false, after: '\n' },
        ],
        truncated: false,
        next_occurrence_index: null,
        buffer_stage: 'canonical_target',
        prior_changes: 0,
        observed_target_version: 0,
        observed_target_hash: 'b22ebf77',
      },
    });
  });
});

describe('typed match: occurrences and selectors', () => {
  it('counts overlapping occurrences', () => {
    expect(countOccurrences('aaaa', 'aa')).toBe(3);
    const result = failure(tx1([{ match: 'aa', replace: 'X' }], 'aaaa'));
    expect(result.diagnostic.occurrence_count).toBe(3);
    expect(success(tx1([{ match: 'aa', replace: 'X', occurrence_index: 2 }], 'aaaa')).text).toBe('aXa');
  });

  it('enforces occurrence_index even when only one occurrence exists', () => {
    expect(success(tx1([{ match: 'beta', replace: 'B', occurrence_index: 1 }], 'alpha beta')).text).toBe('alpha B');
    const result = failure(tx1([{ match: 'beta', replace: 'B', occurrence_index: 2 }], 'alpha beta'));
    expect(result.failure_reason).toBe('disambiguation_invalid');
    expect(result.failure_detail).toBe('OCCURRENCE_INDEX 2 is beyond the 1 exact occurrence of MATCH text.');
    expect(result.diagnostic.selector_check).toBe('occurrence_index_out_of_range');
    expect(result.diagnostic.occurrence_count).toBe(1);
    expect(result.diagnostic).not.toHaveProperty('anchored_occurrence_count');
    expect(result.location).toEqual({ offset: 6 });
  });

  it('selects with anchor_before (anywhere before) and anchor_after (anywhere after)', () => {
    const buffer = 'x = 1; fn(); x = 1; end';
    expect(success(tx1([{ match: 'x = 1', replace: 'x = 2', anchor_before: 'fn' }], buffer)).text).toBe(
      'x = 1; fn(); x = 2; end',
    );
    expect(success(tx1([{ match: 'x = 1', replace: 'x = 2', anchor_after: 'fn' }], buffer)).text).toBe(
      'x = 2; fn(); x = 1; end',
    );
  });

  it('requires anchors to lie wholly outside the match', () => {
    // "ba" first occurs at 1..3, which overlaps both "ab" occurrences' prefixes.
    const result = failure(tx1([{ match: 'ab', replace: 'X', anchor_before: 'ba' }], 'abab'));
    expect(result.failure_reason).toBe('disambiguation_invalid');
    expect(result.diagnostic.selector_check).toBe('anchors_unsatisfied');
    expect(result.diagnostic.anchored_occurrence_count).toBe(0);
  });

  it('rejects anchors that leave several occurrences as match_ambiguous', () => {
    const result = failure(tx1([{ match: 'a', replace: 'X', anchor_before: 'start' }], 'start a a'));
    expect(result.failure_reason).toBe('match_ambiguous');
    expect(result.diagnostic.selector_check).toBe('anchors_not_unique');
    expect(result.diagnostic.anchored_occurrence_count).toBe(2);
  });

  it('requires every supplied selector to hold together', () => {
    const buffer = 'a HEAD a a';
    expect(success(tx1([{ match: 'a', replace: 'X', occurrence_index: 2, anchor_before: 'HEAD' }], buffer)).text).toBe(
      'a HEAD X a',
    );
    const result = failure(tx1([{ match: 'a', replace: 'X', occurrence_index: 1, anchor_before: 'HEAD' }], buffer));
    expect(result.failure_reason).toBe('disambiguation_invalid');
    expect(result.diagnostic.selector_check).toBe('occurrence_anchors_unsatisfied');
    expect(result.diagnostic.exact_candidates).toMatchObject({ occurrence_count: 3, returned_count: 3 });
  });

  it('reports match_absent', () => {
    const result = failure(tx1([{ match: 'zeta', replace: 'eta' }], 'alpha'));
    expect(result.failure_reason).toBe('match_absent');
    expect(result.failure_detail).toBe('MATCH text was not found in the target.');
    expect(result.location).toBeNull();
  });

  it('canonicalizes match, replace and anchors before use', () => {
    const result = success(tx1([{ match: 'a\r\nb', replace: 'c\rd', anchor_after: 'z\r\n' }], 'a\nb z\n'));
    expect(result.text).toBe('c\nd z\n');
    expect(result.facts[0]).toMatchObject({ matched_chars: 3, replacement_chars: 3, matched_sha256: sha256Hex('a\nb') });
  });
});

describe('typed match: sequential buffer', () => {
  it('lets later edits see text produced by earlier ones', () => {
    const result = success(tx1([{ match: 'a', replace: 'b' }, { match: 'bb', replace: 'c' }], 'ab'));
    expect(result.text).toBe('c');
    expect(result.facts.map((f) => [f.change_id, f.span_start, f.span_end])).toEqual([
      ['chg_001', 0, 1],
      ['chg_002', 0, 2],
    ]);
  });

  it('adds the sequential-basis sentence and intermediate stage after earlier changes', () => {
    const result = failure(tx1([{ match: 'one', replace: 'x' }, { match: 'x', replace: 'y' }], 'one x'));
    expect(result.failure_reason).toBe('match_ambiguous');
    expect(result.failure_detail).toBe(
      `${MATCH_AMBIGUOUS_DETAIL} Selectors count occurrences in the sequential buffer after 1 simulated change of this transaction.`,
    );
    expect(result.prior_changes).toBe(1);
    expect(result.failed_change_id).toBe('chg_002');
    expect(result.failing_buffer).toBe('x x');
    expect(result.diagnostic.exact_candidates).toMatchObject({ buffer_stage: 'intermediate_buffer', prior_changes: 1 });
  });

  it('appends the basis sentence to disambiguation_invalid after several changes', () => {
    const edits = [
      { match: 'a', replace: 'b' },
      { match: 'c', replace: 'd' },
      { match: 'b', replace: 'x', occurrence_index: 3 },
    ];
    const result = failure(tx1(edits, 'a c b'));
    expect(result.failure_reason).toBe('disambiguation_invalid');
    expect(result.failure_detail).toBe(
      'OCCURRENCE_INDEX 3 is beyond the 2 exact occurrences of MATCH text. ' +
        'Selectors count occurrences in the sequential buffer after 2 simulated changes of this transaction.',
    );
  });

  it('reports a match consumed by an earlier change as sequential_match_invalid', () => {
    const buffer = 'alpha beta alpha beta\n';
    const result = failure(
      tx1(
        [
          { match: 'alpha beta', replace: 'X', occurrence_index: 2, change_id: 'first' },
          { match: 'alpha beta', replace: 'Y', change_id: 'second' },
          { match: 'beta', replace: 'Z' },
        ],
        buffer,
      ),
    );
    expect(result.failure_reason).toBe('sequential_match_invalid');
    expect(result.failure_detail).toBe('MATCH text was consumed by earlier change in this transaction.');
    expect(result.failed_change_id).toBe('chg_003');
    expect(result.prior_changes).toBe(2);
    expect(result.diagnostic).toMatchObject({
      original_occurrence_count: 2,
      original_occurrences: [
        { occurrence_index: 1, start: 6, end: 10, consumed_by_change_id: 'second', consumed_by_change_index: 2 },
        { occurrence_index: 2, start: 17, end: 21, consumed_by_change_id: 'first', consumed_by_change_index: 1 },
      ],
    });
  });

  it('keeps match_absent when the text is not in the target at all', () => {
    const result = failure(tx1([{ match: 'alpha', replace: 'x' }, { match: 'zeta', replace: 'y' }], 'alpha'));
    expect(result.failure_reason).toBe('match_absent');
    expect(result.prior_changes).toBe(1);
  });

  it('treats an insertion strictly inside an occurrence as consuming it', () => {
    const ops = (at: number) => ({
      intent: 't',
      operations: [
        { op: 'span', start: at, end: at, expected_text: '', replace: '-' },
        { op: 'match', match: 'abcd', replace: 'x' },
      ],
    });
    const inside = failure(run('patchdiff-tx/2', ops(2), '\u{1F600}abcd'));
    expect(inside.failure_reason).toBe('sequential_match_invalid');
    expect(inside.diagnostic.original_occurrences).toEqual([
      { occurrence_index: 1, start: 1, end: 5, consumed_by_change_id: 'chg_001', consumed_by_change_index: 1 },
    ]);
    expect(success(run('patchdiff-tx/2', ops(1), '\u{1F600}abcd')).text).toBe('\u{1F600}-x');
  });
});

describe('typed match: code points', () => {
  it.each([
    ['emoji U+1F600', '\u{1F600}'],
    ['CJK Extension B U+20000', '\u{20000}'],
  ])('reports facts in code points after %s', (_name, astral) => {
    const buffer = `${astral}${astral} alpha ${astral}`;
    const result = success(tx1([{ match: `alpha ${astral}`, replace: astral }], buffer));
    expect(result.facts[0]).toMatchObject({ span_start: 3, span_end: 10, matched_chars: 7, replacement_chars: 1 });
    expect(result.text).toBe(`${astral}${astral} ${astral}`);
  });

  it('gives exact candidates in code points with code-point context', () => {
    const emoji = '\u{1F600}';
    const buffer = `${emoji.repeat(25)}x${emoji}x`;
    const result = failure(tx1([{ match: 'x', replace: 'y' }], buffer));
    const candidates = (result.diagnostic.exact_candidates as { candidates: Record<string, unknown>[] }).candidates;
    expect(candidates[0]).toMatchObject({ start: 25, end: 26, before: emoji.repeat(20), after: `${emoji}x` });
    expect(candidates[1]).toMatchObject({ start: 27, end: 28, before: `${emoji.repeat(18)}x${emoji}`, after: '' });
    expect(result.location).toEqual({ offset: 25 });
  });

  it('gives tx/2 match facts operation "match"', () => {
    const result = success(run('patchdiff-tx/2', { intent: 't', operations: [{ op: 'match', match: 'b', replace: 'c' }] }, 'abc'));
    expect(result.facts[0]).toMatchObject({ operation: 'match', span_start: 1, span_end: 2 });
  });
});

describe('typed match: properties', () => {
  const alphabet = fc.constantFrom('a', 'b', '\u00e9', '\u{1F600}', '\u{20000}');
  const text = (max: number) => fc.array(alphabet, { maxLength: max }).map((cps) => cps.join(''));

  it('counts overlapping occurrences like brute force over code points', () => {
    fc.assert(
      fc.property(text(40), text(4).filter((s) => s.length > 0), (haystack, needle) => {
        const h = [...haystack];
        const n = [...needle];
        let expected = 0;
        for (let i = 0; i + n.length <= h.length; i++) if (n.every((cp, j) => h[i + j] === cp)) expected++;
        expect(countOccurrences(haystack, needle)).toBe(expected);
      }),
    );
  });

  it('replaces the k-th occurrence at its code-point offset', () => {
    fc.assert(
      fc.property(text(30), text(3).filter((s) => s.length > 0), fc.integer({ min: 1, max: 6 }), (haystack, needle, k) => {
        const h = [...haystack];
        const n = [...needle];
        const starts: number[] = [];
        for (let i = 0; i + n.length <= h.length; i++) if (n.every((cp, j) => h[i + j] === cp)) starts.push(i);
        const result = tx1([{ match: needle, replace: '#', occurrence_index: k }], haystack);
        if (starts.length === 0) return expect(result.ok || result.failure_reason).toBe('match_absent');
        if (k > starts.length) return expect(result.ok || result.failure_reason).toBe('disambiguation_invalid');
        const start = starts[k - 1];
        expect(success(result).text).toBe([...h.slice(0, start), '#', ...h.slice(start + n.length)].join(''));
        expect(success(result).facts[0]).toMatchObject({ span_start: start, span_end: start + n.length });
      }),
    );
  });
});
