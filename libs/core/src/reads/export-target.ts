import { Checked, invalidArgument, ok, refuse } from '../errors/invalid-argument';
import { SourceLineEndings } from '../text/canonical-text';
import { sha256Hex } from '../text/sha256';

export const EXPORT_FORMATS = ['original_text', 'canonical_lf', 'crlf', 'original_eol'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ContentEol = 'lf' | 'crlf' | 'cr';

export interface ExportArgs {
  format?: string | null;
}

export interface ExportMeta {
  source_line_endings: SourceLineEndings | null;
}

export interface TargetExport {
  format: ExportFormat;
  content: string;
  content_eol: ContentEol;
  /** SHA-256 of the returned content's UTF-8 bytes (the canonical hash stays current_hash). */
  content_sha256: string;
}

const EOL_TEXT: Record<ContentEol, string> = { lf: '\n', crlf: '\r\n', cr: '\r' };

/**
 * palimpsest_export_target: the canonical LF text written with an explicit line ending.
 * original_text is the legacy alias of canonical_lf (it never meant the original bytes).
 * original_eol applies the recorded uniform upload style to every line, new ones included.
 */
export function exportTarget(text: string, args: ExportArgs, meta: ExportMeta): Checked<TargetExport> {
  const format = args.format ?? 'original_text';
  if (!isExportFormat(format)) {
    const detail = `format must be one of ${EXPORT_FORMATS.join(', ')}; got ${JSON.stringify(format)}.`;
    const extra = { argument: 'format', allowed_formats: [...EXPORT_FORMATS] };
    return refuse(invalidArgument('unsupported_export_format', detail, extra));
  }
  const eol = eolFor(format, meta.source_line_endings);
  if (!eol.ok) return eol;
  const content = eol.value === 'lf' ? text : text.replaceAll('\n', EOL_TEXT[eol.value]);
  return ok({ format, content, content_eol: eol.value, content_sha256: sha256Hex(content) });
}

function isExportFormat(format: string): format is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(format);
}

function eolFor(format: ExportFormat, source: SourceLineEndings | null): Checked<ContentEol> {
  if (format === 'crlf') return ok('crlf');
  if (format !== 'original_eol') return ok('lf');
  if (source === null) {
    const detail = 'original_eol needs recorded source line endings; this target has none (source_line_endings null).';
    return refuse(invalidArgument('source_line_endings_unknown', detail, { argument: 'format' }));
  }
  switch (source.style) {
    case 'mixed': {
      const detail = 'original_eol is unrecoverable: the upload mixed line endings; per-line endings were not kept.';
      const extra = { argument: 'format', source_style: 'mixed' };
      return refuse(invalidArgument('original_eol_unrecoverable', detail, extra));
    }
    case 'crlf':
      return ok('crlf');
    case 'cr':
      return ok('cr');
    default:
      return ok('lf'); // none and lf
  }
}
