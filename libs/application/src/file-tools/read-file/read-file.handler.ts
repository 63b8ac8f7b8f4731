import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { readWorkspaceFileBounded } from '@palimpsest/workspace/workspace-file-reader';
import type { AppContext } from '../../app-context';
import { decodeWorkspaceText, fileTooLarge, pathRefusalAnswer, type WorkspaceFileNotFound } from '../../shared/workspace-text';
import { latestBindingOfPath } from '@palimpsest/projections/workspace-files.queries';
import { noWorkspace } from '../file-tool-answers';
import { behindBytes } from '../shared/behind-disk';
import { linesOf, type ReadFileAnswer, type ReadFileInput } from './file-lines';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { readFileAsOf } from '../../history/as-of/read-file-as-of';

export type { ReadFileAnswer, ReadFileInput } from './file-lines';

/**
 * read_file (seed 004): lines [offset, offset + limit) of the file as on disk, whole lines within
 * MAX_READ_BYTES (UTF-8 bytes of content); truncated when the content stops before the file's end. A
 * first line alone over the cap is cut at the last whole character within it (truncated). A file over
 * MAX_TEXT_FILE_BYTES is refused by its size before it is read (file_too_large); a smaller one is read off
 * the event loop. Reads record nothing: this works under read_only. A bound file behind its target is
 * read from the target's text (behind-disk.ts). The answer also stays within MAX_RESULT_BYTES as sent
 * (escaped, and twice over MCP): past it the content stops at a whole line (truncated; continue with offset).
 */
export async function readFile(ctx: AppContext, input: ReadFileInput): Promise<ReadFileAnswer | InvalidArgument | WorkspaceFileNotFound> {
  if (!ctx.workspace) return noWorkspace(OP.read_file);
  if (input.as_of !== undefined && input.as_of !== null) return readFileAsOf(ctx, ctx.workspace, input);
  const read = await readWorkspaceFileBounded(ctx.workspace, input.path);
  if (read.kind === 'refused') return pathRefusalAnswer(read.refusal, 'path');
  if (read.kind === 'too_large') return fileTooLarge(read, 'path');
  const binding = await latestBindingOfPath(ctx.db, ctx.workspace, read.path);
  const behind = binding ? await behindBytes(ctx, binding, read.bytes) : null;
  const bytes = behind?.bytes ?? read.bytes;
  const decoded = decodeWorkspaceText(read.path, bytes, 'path');
  if (!decoded.ok) return decoded.answer;
  const pending = behind ? { pending: behind.pending } : {};
  return linesOf(read.path, bytes, input, pending);
}

