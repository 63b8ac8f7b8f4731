import { REPLACEMENT_MAX_CODE_POINTS, REPLACEMENT_MAX_UTF8_BYTES, checkReplacementAdmission } from './replacement-admission';

describe('checkReplacementAdmission', () => {
  it('admits text at the inclusive limits', () => {
    expect(checkReplacementAdmission('')).toBeNull();
    expect(checkReplacementAdmission('a'.repeat(REPLACEMENT_MAX_CODE_POINTS))).toBeNull();
    // 262,144 four-byte characters are exactly 1,048,576 bytes.
    expect(checkReplacementAdmission('\u{1F600}'.repeat(REPLACEMENT_MAX_UTF8_BYTES / 4))).toBeNull();
  });

  it('reports raw code points first', () => {
    const raw = '\u00e9'.repeat(REPLACEMENT_MAX_CODE_POINTS + 1);
    expect(checkReplacementAdmission(raw)).toEqual({
      code: 'replacement_too_large',
      limit_exceeded: 'raw_code_points',
      actual: REPLACEMENT_MAX_CODE_POINTS + 1,
      limit: REPLACEMENT_MAX_CODE_POINTS,
      canonical_code_points: REPLACEMENT_MAX_CODE_POINTS + 1,
      canonical_utf8_bytes: 2 * (REPLACEMENT_MAX_CODE_POINTS + 1),
      canonical_would_fit: false,
    });
  });

  it('reports raw bytes when the code points fit', () => {
    const raw = '\u00e9'.repeat(REPLACEMENT_MAX_UTF8_BYTES / 2 + 1);
    expect(checkReplacementAdmission(raw)).toMatchObject({ limit_exceeded: 'raw_utf8_bytes', actual: REPLACEMENT_MAX_UTF8_BYTES + 2 });
  });

  it('says when only CRLF line endings pushed the text over', () => {
    const raw = `${'a'.repeat(REPLACEMENT_MAX_CODE_POINTS - 1)}\r\n`;
    expect(checkReplacementAdmission(raw)).toMatchObject({
      limit_exceeded: 'raw_code_points',
      actual: REPLACEMENT_MAX_CODE_POINTS + 1,
      canonical_code_points: REPLACEMENT_MAX_CODE_POINTS,
      canonical_would_fit: true,
    });
  });
});
