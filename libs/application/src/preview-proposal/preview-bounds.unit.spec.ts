import fc from 'fast-check';
import { asciiJson } from '@palimpsest/core/transaction/record-codec';
import { PREVIEW_MAX_BYTES, boundPreview } from './preview-bounds';

const fact = (i: number) => ({ change_id: `chg_${i}`, change_index: i, span_start: i, span_end: i + 1, matched_chars: 1, replacement_chars: 1, matched_sha256: 'a'.repeat(64), replacement_sha256: 'b'.repeat(64) });
const always = ['status', 'stage', 'validity', 'target_file_id', 'current_version', 'current_hash', 'before_version', 'before_hash'] as const;

describe('preview bounds', () => {
  it('keeps a prefix of at most 32 whole facts and reports what it dropped', () => {
    const r = boundPreview({ status: 'accepted', stage: 's', validity: {}, after_hash: 'h', change_facts: Array.from({ length: 40 }, (_, i) => fact(i + 1)) });
    expect(r).toMatchObject({ total_change_count: 40, returned_fact_count: 32, change_facts_truncated: true, change_facts_omission_reason: 'fact_count_limit', after_hash: 'h' });
  });

  it('never exceeds 32,768 bytes and never drops the verdict fields', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000, unit: 'binary' }), fc.nat(40), (junk, warnings) => {
        const input = {
          status: 'rejected' as const, stage: 'transaction_applicability', validity: { protocol_valid: true }, target_file_id: 't',
          current_version: 1, current_hash: 'h', before_version: 1, before_hash: 'h',
          failure_reason: 'match_absent', failure_detail: junk.repeat(3), failed_change_id: junk,
          diagnostic: { failure_context: { text: junk.slice(0, 256) }, near_misses: { candidates: [junk, junk] }, big: [junk, junk, junk] },
          current_context: { text: junk }, warning_details: Array.from({ length: warnings }, () => ({ detail: junk })),
        };
        const r = boundPreview(input);
        expect(asciiJson(r).length).toBeLessThanOrEqual(PREVIEW_MAX_BYTES);
        for (const key of always) expect(r[key]).toEqual((input as Record<string, unknown>)[key]);
      }),
      { numRuns: 50 },
    );
  });
});
