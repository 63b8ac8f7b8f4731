import fc from 'fast-check';
import { sha256Hex } from '../text/sha256';
import { applyProposal } from './apply-proposal';
import { parseProposal } from './parse-proposal';
import type { TxResult } from './transaction.types';

function ops(operations: Record<string, unknown>[], buffer: string): TxResult {
  const parsed = parseProposal('patchdiff-tx/2', { intent: 't', operations });
  if (!parsed.ok) throw new Error(parsed.failure.failure_detail);
  return applyProposal(parsed.proposal, buffer);
}

const span = (start: number, end: number, expected_text: string, replace: string, extra: Record<string, unknown> = {}) => ({
  op: 'span',
  start,
  end,
  expected_text,
  replace,
  ...extra,
});

function success(result: TxResult) {
  if (!result.ok) throw new Error(`${result.failure_reason}: ${result.failure_detail}`);
  return result;
}

function failure(result: TxResult) {
  if (result.ok) throw new Error(`expected a rejection, got ${result.text}`);
  return result;
}

describe('span operations: application', () => {
  it('replaces, inserts and deletes, with span facts', () => {
    const result = success(ops([span(6, 10, 'beta', 'BETA'), span(5, 5, '', '!'), span(0, 5, 'alpha', '')], 'alpha beta'));
    expect(result.text).toBe('! BETA');
    expect(result.facts).toEqual([
      expect.objectContaining({ operation: 'span', span_start: 6, span_end: 10, matched_chars: 4, replacement_chars: 4 }),
      expect.objectContaining({ operation: 'span', span_start: 5, span_end: 5, matched_chars: 0, matched_sha256: sha256Hex('') }),
      expect.objectContaining({ operation: 'span', span_start: 0, span_end: 5, matched_chars: 5, replacement_chars: 0 }),
    ]);
  });

  it('uses code-point coordinates around astral characters', () => {
    const buffer = '\u{1F600}ab\u{20000}cd';
    expect(success(ops([span(1, 3, 'ab', 'X')], buffer)).text).toBe('\u{1F600}X\u{20000}cd');
    const removed = success(ops([span(3, 4, '\u{20000}', '\u{1F600}\u{1F600}'), span(0, 1, '\u{1F600}', '')], buffer));
    expect(removed.text).toBe('ab\u{1F600}\u{1F600}cd');
    expect(removed.facts[0]).toMatchObject({ span_start: 3, span_end: 4, matched_chars: 1, replacement_chars: 2 });
  });

  it('canonicalizes expected_text and replace', () => {
    const result = success(ops([span(0, 3, 'a\r\nb', 'x\ry')], 'a\nb'));
    expect(result.text).toBe('x\ny');
  });

  it('rejects the whole transaction when a later span fails', () => {
    const result = failure(ops([span(0, 1, 'a', 'Z'), span(1, 2, 'q', 'Q')], 'ab'));
    expect(result.failure_reason).toBe('span_expected_text_mismatch');
    expect(result.failed_change_id).toBe('chg_002');
    expect(result.prior_changes).toBe(1);
    expect(result.failing_buffer).toBe('Zb');
  });
});

describe('span operations: checks', () => {
  it('reports span_out_of_bounds at the buffer end', () => {
    const result = failure(ops([span(2, 9, 'x', 'y')], '\u{1F600}abc'));
    expect(result.failure_reason).toBe('span_out_of_bounds');
    expect(result.diagnostic).toMatchObject({ span_check: 'bounds', buffer_length: 4, start: 2, end: 9 });
    expect(result.location).toEqual({ offset: 4 });
    expect(failure(ops([span(5, 5, '', 'y')], 'abc')).failure_reason).toBe('span_out_of_bounds');
    expect(success(ops([span(3, 3, '', 'y')], 'abc')).text).toBe('abcy');
  });

  it('reports expected_text mismatches with bounded actual text', () => {
    const buffer = 'x'.repeat(100);
    const result = failure(ops([span(0, 70, 'y'.repeat(70), '')], buffer));
    expect(result.failure_reason).toBe('span_expected_text_mismatch');
    expect(result.diagnostic).toMatchObject({
      format: 'patchdiff-tx/2',
      span_check: 'expected_text',
      buffer_length: 100,
      expected_chars: 70,
      actual_chars: 70,
      actual_text: 'x'.repeat(64),
      actual_text_truncated: true,
    });
    expect(result.location).toEqual({ offset: 0 });
  });

  it('requires an empty expected_text for an insertion', () => {
    const result = failure(ops([span(1, 1, 'b', 'X')], 'abc'));
    expect(result.diagnostic).toMatchObject({ span_check: 'expected_text', actual_text: '', actual_chars: 0, expected_chars: 1 });
  });

  it('checks expected_before immediately before the span', () => {
    expect(success(ops([span(3, 3, '', 'X', { expected_before: 'abc' })], 'abcdef')).text).toBe('abcXdef');
    const result = failure(ops([span(3, 3, '', 'X', { expected_before: 'xbc' })], 'abcdef'));
    expect(result.diagnostic).toMatchObject({ span_check: 'expected_before', actual_text: 'abc', actual_chars: 3, expected_chars: 3 });
    expect(result.location).toEqual({ offset: 3 });
  });

  it('treats expected_before reaching past the buffer start as a mismatch showing the end nearest the span', () => {
    const buffer = `${'q'.repeat(70)}tail`;
    const result = failure(ops([span(70, 70, '', 'X', { expected_before: 'p'.repeat(80) })], buffer));
    expect(result.failure_reason).toBe('span_expected_text_mismatch');
    expect(result.diagnostic).toMatchObject({
      span_check: 'expected_before',
      expected_chars: 80,
      actual_chars: 70,
      actual_text: 'q'.repeat(64),
      actual_text_truncated: true,
    });
  });

  it('checks expected_after immediately after the span and locates it at the span end', () => {
    expect(success(ops([span(0, 1, 'a', 'A', { expected_after: 'bc', expected_before: null })], 'abc')).text).toBe('Abc');
    const result = failure(ops([span(0, 1, 'a', 'A', { expected_after: 'bcd' })], 'abc'));
    expect(result.diagnostic).toMatchObject({ span_check: 'expected_after', actual_text: 'bc', actual_chars: 2, expected_chars: 3 });
    expect(result.location).toEqual({ offset: 1 });
  });

  it('compares span context after canonicalization and in code points', () => {
    const buffer = 'a\n\u{1F600}|\u{20000}\nb';
    const op = span(3, 4, '|', '+', { expected_before: '\r\n\u{1F600}', expected_after: '\u{20000}\r' });
    expect(success(ops([op], buffer)).text).toBe('a\n\u{1F600}+\u{20000}\nb');
  });
});

describe('span operations: properties', () => {
  const alphabet = fc.constantFrom('a', 'b', '\n', '\u00e9', '\u4e2d', '\u{1F600}', '\u{20000}');
  const replacement = fc.array(alphabet, { maxLength: 4 }).map((cps) => cps.join(''));

  it('descending span sets equal a code-point array reference', () => {
    const scenario = fc.array(alphabet, { maxLength: 40 }).chain((cps) =>
      fc.record({
        cps: fc.constant(cps),
        spans: fc.array(
          fc.record({ a: fc.nat(cps.length), b: fc.nat(cps.length), replace: replacement }),
          { maxLength: 6 },
        ),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ cps, spans }) => {
        const chosen: { start: number; end: number; replace: string }[] = [];
        let limit = Infinity;
        const sorted = spans
          .map((s) => ({ start: Math.min(s.a, s.b), end: Math.max(s.a, s.b), replace: s.replace }))
          .sort((x, y) => y.start - x.start || y.end - x.end);
        for (const s of sorted) {
          if (s.end <= limit) {
            chosen.push(s);
            limit = s.start;
          }
        }
        if (chosen.length === 0) return;
        const reference: string[] = [...cps];
        const operations = chosen.map((s) => {
          const expected = reference.slice(s.start, s.end).join('');
          reference.splice(s.start, s.end - s.start, ...s.replace);
          return span(s.start, s.end, expected, s.replace);
        });
        const result = success(ops(operations, cps.join('')));
        expect(result.text).toBe(reference.join(''));
        result.facts.forEach((fact, i) => {
          expect(fact).toMatchObject({ span_start: chosen[i].start, span_end: chosen[i].end, replacement_chars: [...chosen[i].replace].length });
        });
      }),
    );
  });
});
