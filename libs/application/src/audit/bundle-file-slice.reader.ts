import { closeSync, openSync, readSync } from 'node:fs';
import { UNTERMINATED } from '@palimpsest/core/audit/bundle-lines';
import { SliceVerifier, type SliceContext, type SliceResult } from '@palimpsest/core/audit/verify-slice';

/**
 * The lines of a file that start in a byte range, read in chunks: a slice owns each line whose first byte
 * falls in [start, end), so a line that crosses `end` is read whole by the slice it starts in and skipped
 * by the next. A last line without its newline is passed on marked, to be named as cut short.
 */

export interface ByteRange {
  start: number;
  end: number;
}

const CHUNK = 4 * 1024 * 1024;
const NEWLINE = 10;

export function forEachLineIn(file: string, range: ByteRange, each: (line: string) => void): void {
  const fd = openSync(file, 'r');
  try {
    readLines(fd, range, each);
  } finally {
    closeSync(fd);
  }
}

function readLines(fd: number, { start, end }: ByteRange, each: (line: string) => void): void {
  let base = start;
  let carry = Buffer.alloc(0);
  let skipping = start > 0 && byteAt(fd, start - 1) !== NEWLINE;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK);
    const read = readSync(fd, chunk, 0, CHUNK, base + carry.length);
    if (read === 0) {
      if (carry.length > 0 && !skipping && base < end) each(carry.toString('utf8') + UNTERMINATED);
      return;
    }
    const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
    let at = 0;
    if (skipping) {
      const newline = data.indexOf(NEWLINE);
      if (newline < 0) {
        [base, carry] = [base + data.length, Buffer.alloc(0)];
        continue;
      }
      [at, skipping] = [newline + 1, false];
    }
    if (base + at >= end) return;
    // The newline that ends the last line starting before `end`, if this chunk holds it.
    const last = base + data.length > end - 1 ? data.indexOf(NEWLINE, Math.max(at, end - 1 - base)) : -1;
    const upTo = last >= 0 ? last : data.lastIndexOf(NEWLINE);
    if (upTo >= at) splitLines(data.toString('utf8', at, upTo), each);
    if (last >= 0) return;
    const rest = upTo >= at ? upTo + 1 : at;
    [base, carry] = [base + rest, Buffer.from(data.subarray(rest))];
  }
}

function splitLines(text: string, each: (line: string) => void): void {
  let from = 0;
  for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', from)) {
    each(text.slice(from, newline));
    from = newline + 1;
  }
  each(text.slice(from));
}

function byteAt(fd: number, position: number): number {
  const one = Buffer.alloc(1);
  readSync(fd, one, 0, 1, position);
  return one[0]!;
}

/** A slice of a bundle file verified in this thread: what each worker runs. */
export function verifyFileSlice(file: string, range: ByteRange, context: SliceContext): SliceResult {
  const slice = new SliceVerifier(context);
  forEachLineIn(file, range, (line) => slice.line(line));
  return slice.result();
}
