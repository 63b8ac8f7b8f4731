import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { RefusalDetails } from '@palimpsest/core/errors/refusal-details';
import { textDefect, TEXT_DEFECT_WORDS } from '@palimpsest/core/text/encoding';
import type { NextAction } from '@palimpsest/core/errors/error-model';
import type { WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import type { TooLarge } from '@palimpsest/workspace/workspace-file-reader';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/** A workspace path that names no file: not_found with the PATH_NOT_FOUND code (seed 004). */
export type WorkspaceFileNotFound = RefusalDetails & {
  status: 'not_found';
  code: 'PATH_NOT_FOUND';
  failure_detail: string;
  argument: string;
};

/** A path refusal as an answer: PATH_NOT_FOUND is not_found, every other code an invalid_argument (`fields`: what else the answer names, e.g. the path). */
export function pathRefusalAnswer<A extends string>(refusal: WorkspacePathRefusal, argument: A, fields: Omit<RefusalDetails, 'argument'> = {}): (WorkspaceFileNotFound & { argument: A }) | InvalidArgument {
  const { code, message, component } = refusal;
  const extra = { argument, ...fields, ...(component === undefined ? {} : { component }) };
  if (code === 'PATH_NOT_FOUND') return { status: 'not_found', code, failure_detail: message, ...extra };
  if (code === 'PATH_RESERVED') return invalidArgument(code, message, { ...extra, next_actions: [LIST_PROJECT] });
  return invalidArgument(code, message, extra);
}

/** A reserved path's next step: the project's files, where Palimpsest's own never appear. */
const LIST_PROJECT: NextAction = { operation: OP.list_files, reason: 'List the project\'s files and work on those: this path is not one a tool may use', params: {} };
const MIB = 1024 * 1024;

/**
 * A file over the size Palimpsest reads, hashes or takes in as text, refused by its size before a byte was
 * read: file_too_large with the size, the limit, and the directory listing that shows which files beside
 * it can be read.
 */
export function fileTooLarge(t: TooLarge, argument: string): InvalidArgument {
  const dir = t.path.includes('/') ? t.path.slice(0, t.path.lastIndexOf('/')) : '.';
  const detail = `${JSON.stringify(t.path)} holds ${t.size} bytes, over the ${t.limit / MIB} MiB Palimpsest reads, hashes or takes in as text; nothing of it was read. Work on it outside Palimpsest, or split it into smaller files.`;
  return invalidArgument('file_too_large', detail, {
    argument, path: t.path, size: t.size, limit: t.limit,
    next_actions: [{ operation: OP.list_files, reason: `See the files beside it and their sizes: those up to ${t.limit / MIB} MiB can be read and edited`, params: { path: dir } }],
  });
}

// Strict: a malformed sequence throws instead of becoming U+FFFD. ignoreBOM keeps a BOM as U+FEFF, so the
// decoded text re-encodes to exactly the bytes read and source_sha256 of the text is the hash of the file.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A workspace file's bytes as text: strict UTF-8, held to the text rules of every argument (no NUL), or
 * invalid_text_encoding naming the file.
 */
export function decodeWorkspaceText(path: string, bytes: Uint8Array, argument: string): { ok: true; content: string } | { ok: false; answer: InvalidArgument } {
  const notText = (why: string) => ({ ok: false as const, answer: invalidArgument('invalid_text_encoding', `${JSON.stringify(path)} is not valid UTF-8 text: it ${why}.`, { argument }) });
  let content: string;
  try {
    content = STRICT_UTF8.decode(bytes);
  } catch {
    return notText('holds a byte sequence that is not UTF-8');
  }
  const defect = textDefect(content);
  return defect ? notText(TEXT_DEFECT_WORDS[defect]) : { ok: true, content };
}
