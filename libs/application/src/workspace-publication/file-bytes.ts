import { exportTarget, type ContentEol } from '@palimpsest/core/reads/export-target';
import type { LineEndingStyle, SourceLineEndings } from '@palimpsest/core/text/canonical-text';

/**
 * The bytes a bound file is published with for its target's canonical LF text (the file tools' writes
 * and an apply's publication alike): in the file's recorded line-ending style (original_eol). A file
 * recorded with mixed endings kept no per-line endings, so it is written with LF throughout (the answer
 * says content_eol 'lf'): the one style its lines certainly had. A target recorded without any line
 * ending (style none: an empty or one-line text) takes the style its file was bound with, so a file
 * created with CRLF after its target (write_file under an approval) keeps CRLF.
 */
export function fileBytesOf(text: string, recorded: SourceLineEndings | null, bound: LineEndingStyle | null = null): { bytes: Buffer; content_eol: ContentEol } {
  const style = recorded?.style === 'none' && (bound === 'crlf' || bound === 'cr') ? { ...recorded, style: bound } : recorded;
  const format = style === null || style.style === 'mixed' ? 'canonical_lf' : 'original_eol';
  const exported = exportTarget(text, { format }, { source_line_endings: style });
  if (!exported.ok) throw new Error(`publication: no line-ending style for the target: ${exported.error.failure_detail}`);
  return { bytes: Buffer.from(exported.value.content, 'utf8'), content_eol: exported.value.content_eol };
}
