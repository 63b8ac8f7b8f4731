import { createHash } from 'node:crypto';
import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { WorkspaceSource } from '@palimpsest/core/target/target.commands';
import { checkWorkspaceAccess } from '@palimpsest/core/workspace/workspace-access';
import { readWorkspaceFileBounded } from '@palimpsest/workspace/workspace-file-reader';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { decodeWorkspaceText, fileTooLarge, pathRefusalAnswer, type WorkspaceFileNotFound as NotFound } from '../shared/workspace-text';

/** A workspace path that names no file: not_found with the PATH_NOT_FOUND code (seed 004). */
export type WorkspaceFileNotFound = NotFound & { argument: 'filename' };

export type WorkspaceImport =
  | { ok: true; content: string; source: WorkspaceSource }
  | { ok: false; answer: InvalidArgument | WorkspaceFileNotFound };

/**
 * Read `filename` under the workspace root for palimpsest_initialize_target(from_workspace): its text,
 * decoded as strict UTF-8 and held to the text rules of every argument (no NUL), and where it came from
 * (its canonical path). A binding is there to be published to, so it is held to the rules of a write:
 * `.git` internals are refused as well as the reserved set. A file over MAX_TEXT_FILE_BYTES is refused by
 * its size (file_too_large) before it is read.
 */
export async function importWorkspaceFile(root: WorkspaceRoot, filename: string): Promise<WorkspaceImport> {
  const bindable = checkWorkspaceAccess(filename, { access: 'write', reserved: root.reserved });
  if (bindable.kind === 'refused') return { ok: false, answer: pathRefusalAnswer(bindable.refusal, 'filename') };
  const read = await readWorkspaceFileBounded(root, filename);
  if (read.kind === 'refused') return { ok: false, answer: pathRefusalAnswer(read.refusal, 'filename') };
  if (read.kind === 'too_large') return { ok: false, answer: fileTooLarge(read, 'filename') };
  const decoded = decodeWorkspaceText(read.path, read.bytes, 'filename');
  if (!decoded.ok) return decoded;
  return {
    ok: true,
    content: decoded.content,
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
