import fc from 'fast-check';
import { canonicalizeUpload, SourceLineEndings } from '../text/canonical-text';
import { sha256Hex } from '../text/sha256';
import { EXPORT_FORMATS, exportTarget } from './export-target';
import { errorOf, value } from '../errors/test-support/checked';

const sourceOf = (raw: string): SourceLineEndings => canonicalizeUpload(raw).sourceLineEndings;
const text = 'one\ntwo\n';
const unknown = { source_line_endings: null };

describe('exportTarget', () => {
  it('defaults to original_text: the canonical LF text', () => {
    expect(value(exportTarget(text, {}, unknown))).toEqual({
      format: 'original_text',
      content: text,
      content_eol: 'lf',
      content_sha256: sha256Hex(text),
    });
    expect(value(exportTarget(text, { format: null }, unknown)).format).toBe('original_text');
  });

  it('returns canonical LF for canonical_lf and CRLF for crlf, without recorded facts', () => {
    expect(value(exportTarget(text, { format: 'canonical_lf' }, unknown))).toMatchObject({ content: text, content_eol: 'lf' });
    const crlf = value(exportTarget(text, { format: 'crlf' }, unknown));
    expect(crlf).toEqual({
      format: 'crlf',
      content: 'one\r\ntwo\r\n',
      content_eol: 'crlf',
      content_sha256: sha256Hex('one\r\ntwo\r\n'),
    });
  });

  it.each([
    ['a\nb', 'lf', 'a\nb'],
    ['ab', 'lf', 'ab'],
    ['a\r\nb', 'crlf', 'a\r\nb'],
    ['a\rb', 'cr', 'a\rb'],
  ])('original_eol writes the recorded style of %j', (raw, eol, content) => {
    const upload = canonicalizeUpload(raw);
    const meta = { source_line_endings: upload.sourceLineEndings };
    const result = value(exportTarget(upload.text, { format: 'original_eol' }, meta));
    expect(result).toMatchObject({ format: 'original_eol', content_eol: eol, content });
  });

  it('applies the recorded style to lines added after upload', () => {
    const meta = { source_line_endings: sourceOf('a\r\nb') };
    expect(value(exportTarget('a\nnew\nb', { format: 'original_eol' }, meta)).content).toBe('a\r\nnew\r\nb');
  });

  it('refuses original_eol for a mixed upload and for unknown facts', () => {
    const mixed = { source_line_endings: sourceOf('a\r\nb\nc') };
    expect(errorOf(exportTarget('a\nb\nc', { format: 'original_eol' }, mixed))).toMatchObject({
      status: 'invalid_argument',
      code: 'original_eol_unrecoverable',
      argument: 'format',
    });
    expect(errorOf(exportTarget(text, { format: 'original_eol' }, unknown))).toMatchObject({
      code: 'source_line_endings_unknown',
      argument: 'format',
    });
  });

  it('refuses any other format and lists the allowed ones', () => {
    for (const format of ['utf16', 'CRLF', '']) {
      const error = errorOf(exportTarget(text, { format }, unknown));
      expect(error).toMatchObject({ code: 'unsupported_export_format', argument: 'format' });
      expect(error.allowed_formats).toEqual(['original_text', 'canonical_lf', 'crlf', 'original_eol']);
    }
    expect([...EXPORT_FORMATS]).toHaveLength(4);
  });

  it('round-trips an unedited uniform upload: content_sha256 == source_sha256 (property)', () => {
    const line = fc.array(fc.constantFrom('a', 'é', '\u{1F600}', ' '), { maxLength: 6 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.constantFrom('\n', '\r\n', '\r'), (lines, eol) => {
        const raw = lines.join(eol);
        const upload = canonicalizeUpload(raw);
        const meta = { source_line_endings: upload.sourceLineEndings };
        const exported = value(exportTarget(upload.text, { format: 'original_eol' }, meta));
        expect(exported.content).toBe(raw);
        expect(exported.content_sha256).toBe(upload.sourceLineEndings.source_sha256);
      }),
    );
  });

  it('round-trips the seed example: an unedited CRLF upload', () => {
    const upload = canonicalizeUpload('first\r\nsecond\r\n');
    const meta = { source_line_endings: upload.sourceLineEndings };
    const exported = value(exportTarget(upload.text, { format: 'original_eol' }, meta));
    expect(exported.content_eol).toBe('crlf');
    expect(exported.content_sha256).toBe(upload.sourceLineEndings.source_sha256);
  });
});
