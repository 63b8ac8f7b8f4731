import { toCanonicalLf } from '../text/canonical-text';
import { codePointLength } from '../text/code-points';
import type { SpanChange } from './parse-proposal';
import type { SequentialBuffer } from './sequential-buffer';
import { stepFailure, stepSuccess } from './step';
import type { StepEnv, StepResult } from './step';
import { headCodePoints, stepBack, stepForward, tailCodePoints } from './text-window';

export const ACTUAL_TEXT_CODE_POINTS = 64;

type TextCheck = 'expected_text' | 'expected_before' | 'expected_after';

/**
 * A tx/2 span: code-point range [start, end) of the sequential buffer, guarded by its exact current
 * text and, under 0.5.0, by the text immediately adjacent to it.
 */
export function applySpanChange(buf: SequentialBuffer, change: SpanChange, env: StepEnv): StepResult {
  const { start, end } = change;
  const length = buf.length;
  const range = `SPAN [${start}, ${end})`;
  if (start > length || end > length) {
    const detail = `${range} lies outside the buffer of ${length} code points.`;
    return stepFailure(env, buf, 'span_out_of_bounds', detail, { span_check: 'bounds', buffer_length: length, start, end }, length);
  }
  const text = buf.text;
  const unitStart = buf.toUnit(start);
  const unitEnd = stepForward(text, unitStart, end - start);
  const current = text.slice(unitStart, unitEnd);
  const expected = toCanonicalLf(change.expected_text);
  if (current !== expected) {
    const detail = `EXPECTED_TEXT does not match the text at ${range}.`;
    return textMismatch(buf, env, change, 'expected_text', expected, current, detail);
  }
  if (change.expected_before !== null) {
    const wanted = toCanonicalLf(change.expected_before);
    const wantedChars = codePointLength(wanted);
    const actual = text.slice(stepBack(text, unitStart, wantedChars), unitStart);
    // Fewer characters than wanted before the span is a mismatch, not an out-of-bounds span.
    if (start < wantedChars || actual !== wanted) {
      const detail = `EXPECTED_BEFORE does not match the text immediately before ${range}.`;
      return textMismatch(buf, env, change, 'expected_before', wanted, actual, detail);
    }
  }
  if (change.expected_after !== null) {
    const wanted = toCanonicalLf(change.expected_after);
    const actual = text.slice(unitEnd, stepForward(text, unitEnd, codePointLength(wanted)));
    if (actual !== wanted) {
      const detail = `EXPECTED_AFTER does not match the text immediately after ${range}.`;
      return textMismatch(buf, env, change, 'expected_after', wanted, actual, detail);
    }
  }
  return stepSuccess(env, { start, end, unitStart, unitEnd }, current, toCanonicalLf(change.replace), 'span');
}

function textMismatch(
  buf: SequentialBuffer,
  env: StepEnv,
  change: SpanChange,
  check: TextCheck,
  expected: string,
  actual: string,
  detail: string,
): StepResult {
  // For expected_before the part that matters is the end nearest the span.
  const shown = check === 'expected_before' ? tailCodePoints(actual, ACTUAL_TEXT_CODE_POINTS) : headCodePoints(actual, ACTUAL_TEXT_CODE_POINTS);
  const diagnostic = {
    span_check: check,
    buffer_length: buf.length,
    start: change.start,
    end: change.end,
    expected_chars: codePointLength(expected),
    actual_chars: codePointLength(actual),
    actual_text: shown.text,
    actual_text_truncated: shown.truncated,
  };
  const location = check === 'expected_after' ? change.end : change.start;
  return stepFailure(env, buf, 'span_expected_text_mismatch', detail, diagnostic, location);
}
