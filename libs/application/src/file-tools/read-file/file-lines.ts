import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { FILE_READ_LIMITS } from '@palimpsest/protocol/catalog/operations/file-reads.operations';
import { MAX_RESULT_BYTES, prefixWithin, sentBytes, stringSentBytes } from '@palimpsest/protocol/result-bytes';
import type { PendingFile } from '../shared/behind-disk';

export interface ReadFileInput {
  path: string;
  offset?: number;
  limit?: number;
  /** Read the bound file as of a point of its target's history (history/as-of/read-file-as-of.ts). */
  as_of?: unknown;
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

/** Lines [offset, offset + limit) of a file's bytes within the read and answer budgets, with `extra` beside them (pending, as_of). */
export function linesOf<X extends object>(path: string, bytes: Buffer, input: ReadFileInput, extra: X): (ReadFileAnswer & X) | InvalidArgument {
  const starts = lineStarts(bytes);
  const totalLines = starts.length;
  const offset = input.offset ?? 1;
  if (offset > Math.max(totalLines, 1)) {
    return invalidArgument('INVALID_ARGUMENTS', `offset ${offset} is past the end: ${JSON.stringify(path)} has ${totalLines} lines.`, { argument: 'offset', totalLines });
  }
  if (totalLines === 0) return { status: 'ok', path: path, content: '', truncated: false, totalLines, ...extra };
  const first = offset - 1;
  const last = Math.min(totalLines, input.limit === undefined ? totalLines : first + input.limit);
  const start = starts[first];
  const cap = start + FILE_READ_LIMITS.MAX_READ_BYTES;
  let sendable = MAX_RESULT_BYTES - sentBytes({ status: 'ok', path: path, content: '', truncated: true, totalLines, ...extra });
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
  return { status: 'ok', path: path, content, truncated: start + Buffer.byteLength(content) < bytes.length, totalLines, ...extra };
}

