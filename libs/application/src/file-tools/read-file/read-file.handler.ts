import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { FILE_READ_LIMITS } from '@palimpsest/protocol/catalog/operations/file-reads.operations';
import { MAX_RESULT_BYTES, prefixWithin, sentBytes, stringSentBytes } from '@palimpsest/protocol/result-bytes';
import { readWorkspaceFileBounded } from '@palimpsest/workspace/workspace-file-reader';
import type { AppContext } from '../../app-context';
import { decodeWorkspaceText, fileTooLarge, pathRefusalAnswer, type WorkspaceFileNotFound } from '../../shared/workspace-text';
import { latestBindingOfPath } from '@palimpsest/projections/workspace-files.queries';
import { noWorkspace } from '../file-tool-answers';
import { behindBytes, type PendingFile } from '../shared/behind-disk';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export interface ReadFileInput {
  path: string;
  offset?: number;
  limit?: number;
}

export interface ReadFileAnswer {
  status: 'ok';
  path: string;
  content: string;
  truncated: boolean;
  totalLines: number;
  /** The file on disk is behind its target (workspace status pending): content is the target's text. */
  pending?: PendingFile;
}

const LF = 0x0a;

/** Where each line starts in `bytes` (a line ends after its LF; a last line without one still counts). */
function lineStarts(bytes: Buffer): number[] {
  const starts: number[] = [];
  for (let at = 0; at < bytes.length; ) {
    starts.push(at);
    const lf = bytes.indexOf(LF, at);
    at = lf < 0 ? bytes.length : lf + 1;
  }
  return starts;
}

/** The largest end ≤ `cap` bytes after `start` that does not split a UTF-8 sequence. */
function characterBoundary(bytes: Buffer, start: number, cap: number): number {
  let end = start + cap;
  while (end > start && (bytes[end] & 0xc0) === 0x80) end--;
  return end;
}

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
  const read = await readWorkspaceFileBounded(ctx.workspace, input.path);
  if (read.kind === 'refused') return pathRefusalAnswer(read.refusal, 'path');
  if (read.kind === 'too_large') return fileTooLarge(read, 'path');
  const binding = await latestBindingOfPath(ctx.db, ctx.workspace, read.path);
  const behind = binding ? await behindBytes(ctx, binding, read.bytes) : null;
  const bytes = behind?.bytes ?? read.bytes;
  const decoded = decodeWorkspaceText(read.path, bytes, 'path');
  if (!decoded.ok) return decoded.answer;
  const pending = behind ? { pending: behind.pending } : {};
  const starts = lineStarts(bytes);
  const totalLines = starts.length;
  const offset = input.offset ?? 1;
  if (offset > Math.max(totalLines, 1)) {
    return invalidArgument('INVALID_ARGUMENTS', `offset ${offset} is past the end: ${JSON.stringify(read.path)} has ${totalLines} lines.`, { argument: 'offset', totalLines });
  }
  if (totalLines === 0) return { status: 'ok', path: read.path, content: '', truncated: false, totalLines, ...pending };
  const first = offset - 1;
  const last = Math.min(totalLines, input.limit === undefined ? totalLines : first + input.limit);
  const start = starts[first];
  const cap = start + FILE_READ_LIMITS.MAX_READ_BYTES;
  let sendable = MAX_RESULT_BYTES - sentBytes({ status: 'ok', path: read.path, content: '', truncated: true, totalLines, ...pending });
  let end = start;
  let next = first;
  while (next < last) {
    const lineEnd = next + 1 < totalLines ? starts[next + 1] : bytes.length;
    if (lineEnd > cap) break;
    const cost = stringSentBytes(bytes.subarray(end, lineEnd).toString('utf8'));
    if (cost > sendable) break;
    sendable -= cost;
    end = lineEnd;
    next++;
  }
  const content = next === first ? prefixWithin(bytes.subarray(start, characterBoundary(bytes, start, FILE_READ_LIMITS.MAX_READ_BYTES)).toString('utf8'), sendable) : bytes.subarray(start, end).toString('utf8');
  return { status: 'ok', path: read.path, content, truncated: start + Buffer.byteLength(content) < bytes.length, totalLines, ...pending };
}

