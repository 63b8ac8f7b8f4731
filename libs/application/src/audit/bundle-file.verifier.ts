import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { AuditBundle } from '@palimpsest/core/audit/audit-bundle';
import type { AuditReport } from '@palimpsest/core/audit/audit-report';
import { BUNDLE_LINES_FORMAT } from '@palimpsest/core/audit/bundle-lines';
import { verifyBundle } from '@palimpsest/core/audit/verify-bundle';
import { combineSlices, emptyReport, verifyHeader, withEngines } from '@palimpsest/core/audit/verify-lines';
import type { SliceContext, SliceResult } from '@palimpsest/core/audit/verify-slice';
import { forEachLineIn, verifyFileSlice, type ByteRange } from './bundle-file-slice.reader';
import { SlicePool } from './bundle-slice.pool';

/**
 * `palimpsest verify <bundle>`: a bundle file checked with no database and no service. A bundle of lines
 * is cut into byte ranges verified in worker threads, their results joined in file order (the engine
 * re-run after, in this thread); a bundle of one JSON document (format 1) is read and checked whole.
 */

export interface VerifyFileOptions {
  /** The verifier key to trust (default: the bundle's own). */
  key?: string;
  /** A checkpoint note seen before. */
  trusted?: string;
  engines?: boolean;
  /** The most worker threads to use (default: every core the process may use; 1: none, this thread). */
  workers?: number;
  /** How many byte ranges to cut the events into (default: one per worker). */
  slices?: number;
  /** Runs one slice (default: in a worker thread; tests run it in this one). */
  runSlice?: (file: string, range: ByteRange, context: SliceContext) => Promise<SliceResult>;
}

export class NotABundleError extends Error {}

/** Below this many bytes of events, starting threads costs more than it saves (unless a worker count is asked for). */
const SMALL_BUNDLE = 4 * 1024 * 1024;

export async function verifyBundleFile(file: string, options: VerifyFileOptions = {}): Promise<AuditReport> {
  if (!existsSync(file)) throw new NotABundleError(`${file}: no such file. Write a bundle with \`palimpsest export -o <file>\`.`);
  if (!opening(file).startsWith(`{"format":"${BUNDLE_LINES_FORMAT}"`)) return verifyDocument(file, options);
  // A bundle whose shape is wrong past what the checks read fails as a bundle, never as a crash.
  return verifyLines(file, options).catch((error: unknown) => emptyReport({ kind: 'bundle', reason: `malformed: ${(error as Error).message}` }));
}

async function verifyLines(file: string, options: VerifyFileOptions): Promise<AuditReport> {
  const header = firstLine(file);
  const checked = verifyHeader(header.text, options.trusted);
  if ('report' in checked) return checked.report;
  if (options.key !== undefined && options.key !== checked.header.verifier_key) return OTHER_KEY;
  const size = header.fileSize;
  const workers = options.workers === undefined && size - header.end < SMALL_BUNDLE ? 1 : Math.max(1, Math.min(options.workers ?? Infinity, availableParallelism()));
  const pool = !options.runSlice && workers > 1 ? new SlicePool(workers) : null;
  const run = options.runSlice ?? (pool ? pool.run.bind(pool) : inThread);
  const count = options.slices ?? (pool ? workers * SLICES_PER_WORKER : 1);
  const at = (i: number) => header.end + Math.floor(((size - header.end) * i) / count);
  const ranges = Array.from({ length: count }, (_, i) => ({ start: at(i), end: at(i + 1) }));
  const slices = await Promise.all(ranges.map((range) => run(file, range, checked.context))).finally(() => pool?.close());
  const report = combineSlices(checked.header, checked.latest, slices);
  if (!report.ok || options.engines === false) return report;
  const lines: string[] = [];
  forEachLineIn(file, { start: header.end, end: size }, (line) => {
    if (line.includes('"streamId":"target-')) lines.push(line);
  });
  return withEngines(report, lines);
}

/** Slices a worker takes in turn: enough for a slow thread to fall behind by one short slice, not by half the file. */
const SLICES_PER_WORKER = 4;

const OTHER_KEY = emptyReport({ kind: 'bundle', reason: 'signed by another key than the one given' });

const inThread = async (file: string, range: ByteRange, context: SliceContext) => verifyFileSlice(file, range, context);

function opening(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64);
    return head.toString('utf8', 0, readSync(fd, head, 0, 64, 0));
  } finally {
    closeSync(fd);
  }
}

/** The header line (up to its newline) and where the events start. */
function firstLine(file: string): { text: string; end: number; fileSize: number } {
  const fd = openSync(file, 'r');
  try {
    const fileSize = fstatSync(fd).size;
    const parts: Buffer[] = [];
    for (let at = 0; at < fileSize; ) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, fileSize - at));
      const read = readSync(fd, chunk, 0, chunk.length, at);
      const newline = chunk.subarray(0, read).indexOf(10);
      parts.push(chunk.subarray(0, newline >= 0 ? newline : read));
      at += newline >= 0 ? newline + 1 : read;
      if (newline >= 0 || read === 0) return { text: Buffer.concat(parts).toString('utf8'), end: at, fileSize };
    }
    return { text: Buffer.concat(parts).toString('utf8'), end: fileSize, fileSize };
  } finally {
    closeSync(fd);
  }
}

/** A format-1 bundle: one JSON document. One whose shape is wrong fails as a bundle, never as a crash. */
function verifyDocument(file: string, { trusted, engines, key }: VerifyFileOptions): AuditReport {
  let bundle: AuditBundle;
  try {
    bundle = JSON.parse(readFileSync(file, 'utf8')) as AuditBundle;
  } catch {
    throw new NotABundleError(`${file} is not a bundle: neither lines starting with a bundle header nor one JSON document. Write one with \`palimpsest export -o <file>\`.`);
  }
  if (key !== undefined && key !== bundle?.verifier_key) return OTHER_KEY;
  try {
    return verifyBundle(bundle, trusted, { engines });
  } catch (error) {
    return emptyReport({ kind: 'bundle', reason: `malformed: ${(error as Error).message}` });
  }
}
