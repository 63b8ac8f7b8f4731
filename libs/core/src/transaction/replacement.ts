import { toCanonicalLf } from '../text/canonical-text';
import { codePointLength } from '../text/code-points';
import { sha256Hex } from '../text/sha256';
import type { TxSuccess } from './transaction.types';
import { collectWarnings } from './warnings';

export const REPLACEMENT_CHANGE_ID = 'chg_001';

/** tx/3: one replace_all over the whole canonical buffer. It cannot fail once the record is valid. */
export function applyReplacement(buffer: string, rawReplacement: string): TxSuccess {
  const replacement = toCanonicalLf(rawReplacement);
  const length = codePointLength(buffer);
  return {
    ok: true,
    text: replacement,
    facts: [
      {
        change_id: REPLACEMENT_CHANGE_ID,
        change_index: 1,
        span_start: 0,
        span_end: length,
        matched_chars: length,
        replacement_chars: codePointLength(replacement),
        matched_sha256: sha256Hex(buffer),
        replacement_sha256: sha256Hex(replacement),
        operation: 'replace_all',
      },
    ],
    effects: [{ start: 0, end: length, inserted: replacement }],
    annotations: [{ change_id: REPLACEMENT_CHANGE_ID, change_index: 1, rationale: null, risk: null }],
    warnings: collectWarnings({
      changes: [{ change_id: REPLACEMENT_CHANGE_ID, change_index: 1, noOp: buffer === replacement }],
      before: buffer,
      after: replacement,
    }),
  };
}
