import { codePointLength, utf8ByteLength } from './code-points';
import { sha256Hex } from './sha256';

export type LineEndingStyle = 'none' | 'lf' | 'crlf' | 'cr' | 'mixed';

/** What an upload's line endings were before normalization (seed field names). */
export interface SourceLineEndings {
  style: LineEndingStyle;
  lf: number;
  crlf: number;
  cr: number;
  normalized: boolean;
  source_code_points: number;
  source_utf8_bytes: number;
  source_sha256: string;
}

/** Canonical storage form: every CRLF and lone CR becomes LF. */
export function toCanonicalLf(raw: string): string {
  return raw.indexOf('\r') === -1 ? raw : raw.replace(/\r\n?/g, '\n');
}

export function countLineEndings(raw: string): { lf: number; crlf: number; cr: number } {
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 10) lf++;
    else if (code === 13) {
      if (raw.charCodeAt(i + 1) === 10) {
        crlf++;
        i++;
      } else cr++;
    }
  }
  return { lf, crlf, cr };
}

function styleOf(counts: { lf: number; crlf: number; cr: number }): LineEndingStyle {
  const kinds = (counts.lf > 0 ? 1 : 0) + (counts.crlf > 0 ? 1 : 0) + (counts.cr > 0 ? 1 : 0);
  if (kinds === 0) return 'none';
  if (kinds > 1) return 'mixed';
  return counts.lf > 0 ? 'lf' : counts.crlf > 0 ? 'crlf' : 'cr';
}

export interface CanonicalUpload {
  text: string;
  hash: string;
  sourceLineEndings: SourceLineEndings;
}

/** Normalize an upload to canonical LF text and record its source line endings. */
export function canonicalizeUpload(raw: string): CanonicalUpload {
  const counts = countLineEndings(raw);
  const text = toCanonicalLf(raw);
  return {
    text,
    hash: sha256Hex(text),
    sourceLineEndings: {
      style: styleOf(counts),
      ...counts,
      normalized: text !== raw,
      source_code_points: codePointLength(raw),
      source_utf8_bytes: utf8ByteLength(raw),
      source_sha256: sha256Hex(raw),
    },
  };
}
