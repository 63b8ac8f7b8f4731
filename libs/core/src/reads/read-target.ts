import { Checked, invalidArgument, ok, refuse } from '../errors/invalid-argument';
import { codePointLength, isBmpOnly } from '../text/code-points';
import { advanceCodePoints } from './code-point-walk';
import { integerArg, READ_BOUNDS } from './read-bounds';

export interface ReadTargetArgs {
  start?: number | null;
  length?: number | null;
}

/** One bounded slice of the canonical text; offsets are code points, `end` is exclusive. */
export interface TargetSlice {
  start: number;
  end: number;
  text: string;
  total_chars: number;
  truncated: boolean;
  next_start: number | null;
}

/**
 * palimpsest_read_target: `length` code points from `start` (default 0 / 4,000, clamped to 1..8,000).
 * start == total_chars is a valid empty read; beyond it refuses. Continue with next_start.
 */
export function readTargetSlice(text: string, args: ReadTargetArgs): Checked<TargetSlice> {
  const start = integerArg(args.start, { argument: 'start', code: 'start_out_of_range', min: 0, fallback: 0 });
  if (!start.ok) return start;
  const length = integerArg(args.length, {
    argument: 'length',
    code: 'invalid_length',
    min: 1,
    fallback: READ_BOUNDS.defaultChars,
  });
  if (!length.ok) return length;
  return sliceFrom(text, start.value, Math.min(length.value, READ_BOUNDS.maxChars));
}

function sliceFrom(text: string, start: number, length: number): Checked<TargetSlice> {
  const bmpOnly = isBmpOnly(text);
  const totalChars = bmpOnly ? text.length : codePointLength(text);
  if (start > totalChars) {
    const detail = `start ${start} is past the end of the target (total_chars ${totalChars}).`;
    return refuse(invalidArgument('start_out_of_range', detail, { argument: 'start', total_chars: totalChars }));
  }
  const end = Math.min(start + length, totalChars);
  const startUnit = advanceCodePoints(text, 0, start, bmpOnly);
  const endUnit = advanceCodePoints(text, startUnit, end - start, bmpOnly);
  const truncated = end < totalChars;
  return ok({
    start,
    end,
    text: text.slice(startUnit, endUnit),
    total_chars: totalChars,
    truncated,
    next_start: truncated ? end : null,
  });
}
