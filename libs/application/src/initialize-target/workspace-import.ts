import { createHash } from 'node:crypto';
import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { WorkspaceSource } from '@palimpsest/core/target/target.commands';
import { textDefect, TEXT_DEFECT_WORDS } from '@palimpsest/core/text/encoding';
import { readWorkspaceFile } from '@palimpsest/workspace/workspace-file-reader';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';

/** A workspace path that names no file: not_found with the PATH_NOT_FOUND code (seed 004). */
export interface WorkspaceFileNotFound {
  status: 'not_found';
  code: 'PATH_NOT_FOUND';
  failure_detail: string;
  argument: 'filename';
  [extra: string]: unknown;
}

export type WorkspaceImport =
  | { ok: true; content: string; source: WorkspaceSource }
  | { ok: false; answer: InvalidArgument | WorkspaceFileNotFound };

// Strict: a malformed sequence throws instead of becoming U+FFFD. ignoreBOM keeps a BOM as U+FEFF, so the
// decoded text re-encodes to exactly the bytes read and source_sha256 of the text is the hash of the file.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const notText = (path: string, why: string): WorkspaceImport => ({
  ok: false,
  answer: invalidArgument('invalid_text_encoding', `${JSON.stringify(path)} is not valid UTF-8 text: it ${why}.`, { argument: 'filename' }),
});

/**
 * Read `filename` under the workspace root for palimpsest_initialize_target(from_workspace): its text,
 * decoded as strict UTF-8 and held to the text rules of every argument (no NUL), and where it came from.
 */
export function importWorkspaceFile(root: WorkspaceRoot, filename: string): WorkspaceImport {
  const read = readWorkspaceFile(root, filename);
  if (read.kind === 'refused') {
    const { code, message, component } = read.refusal;
    const extra = { argument: 'filename' as const, ...(component === undefined ? {} : { component }) };
    if (code === 'PATH_NOT_FOUND') return { ok: false, answer: { status: 'not_found', code, failure_detail: message, ...extra } };
    return { ok: false, answer: invalidArgument(code, message, extra) };
  }
  let content: string;
  try {
    content = STRICT_UTF8.decode(read.bytes);
  } catch {
    return notText(read.path, 'holds a byte sequence that is not UTF-8');
  }
  const defect = textDefect(content);
  if (defect) return notText(read.path, TEXT_DEFECT_WORDS[defect]);
  return {
    ok: true,
    content,
    source: {
      path: read.path,
      root_dev: root.dev,
      root_ino: root.ino,
      file_dev: read.identity.dev,
      file_ino: read.identity.ino,
      source_sha256: createHash('sha256').update(read.bytes).digest('hex'),
    },
  };
}
