import { toCanonicalLf } from '../text/canonical-text';
import { codePointLength, utf8ByteLength } from '../text/code-points';

/** Fresh tx/3 admission limits, inclusive, for the raw replacement and for its canonical form. */
export const REPLACEMENT_MAX_CODE_POINTS = 1_000_000;
export const REPLACEMENT_MAX_UTF8_BYTES = 1_048_576;

export type ReplacementLimit = 'raw_code_points' | 'raw_utf8_bytes' | 'canonical_code_points' | 'canonical_utf8_bytes';

export interface ReplacementTooLarge {
  code: 'replacement_too_large';
  limit_exceeded: ReplacementLimit;
  actual: number;
  limit: number;
  canonical_code_points: number;
  canonical_utf8_bytes: number;
  /** True when only CRLF/CR line endings pushed the raw text over: the LF form would be admitted. */
  canonical_would_fit: boolean;
}

/**
 * Null when a fresh replacement may be admitted; otherwise the first limit exceeded, checked in the
 * order raw code points, raw bytes, canonical code points, canonical bytes. Replay never calls this.
 */
export function checkReplacementAdmission(raw: string): ReplacementTooLarge | null {
  const canonical = toCanonicalLf(raw);
  const canonicalCodePoints = codePointLength(canonical);
  const canonicalBytes = utf8ByteLength(canonical);
  const checks: Array<[ReplacementLimit, () => number, number]> = [
    ['raw_code_points', () => codePointLength(raw), REPLACEMENT_MAX_CODE_POINTS],
    ['raw_utf8_bytes', () => utf8ByteLength(raw), REPLACEMENT_MAX_UTF8_BYTES],
    ['canonical_code_points', () => canonicalCodePoints, REPLACEMENT_MAX_CODE_POINTS],
    ['canonical_utf8_bytes', () => canonicalBytes, REPLACEMENT_MAX_UTF8_BYTES],
  ];
  for (const [limitExceeded, measure, limit] of checks) {
    const actual = measure();
    if (actual > limit) {
      return {
        code: 'replacement_too_large',
        limit_exceeded: limitExceeded,
        actual,
        limit,
        canonical_code_points: canonicalCodePoints,
        canonical_utf8_bytes: canonicalBytes,
        canonical_would_fit: canonicalCodePoints <= REPLACEMENT_MAX_CODE_POINTS && canonicalBytes <= REPLACEMENT_MAX_UTF8_BYTES,
      };
    }
  }
  return null;
}
