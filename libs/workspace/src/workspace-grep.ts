import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import { requiredLiterals } from './workspace-grep.literal';
import { GREP_WORKER_SOURCE, type GrepBatch, type GrepBatchFile, type GrepBatchResult, type GrepMatch } from './workspace-grep.worker';
import { walkWorkspace, type WalkedEntry } from './workspace-listing';
import type { WorkspaceRoot } from './workspace-root';
import { readWorkspaceFileUpTo } from './workspace-file-reader';

/**
 * grep over the workspace (seed 004). The files are chosen by the recursive listing's rules
 * (workspace-listing.ts: .gitignore, .git and node_modules skipped, links never followed) and read here,
 * each by one open in the directory handle the walk holds (readListed), into buffers shared with a
 * worker thread; the worker searches them a batch at a time (looking for the pattern's required literals
 * first, workspace-grep.literal.ts), so the caller's regular expression never runs on the event loop.
 * The whole call has one time budget: at the deadline the worker is terminated (V8 interrupts a
 * backtracking regex) and the call answers timeout.
 *
 * Workers are kept in a small idle pool: starting one costs 20 to 50 ms here (bench/file-grep.ts prints
 * it), a pooled one is ready at once, and a worker that timed out is never reused.
 */

export const DEFAULT_GREP_TIMEOUT_MS = 1000;
export const GREP_TIMEOUT_ENV = 'PALIMPSEST_GREP_TIMEOUT_MS';
/** A matched line is returned cut to this many UTF-16 units (and an ellipsis). */
export const MAX_GREP_LINE_CHARS = 500;
/** Files larger than this are not searched (their size is known from fstat before any read). */
export const MAX_GREP_FILE_BYTES = 16 * 1024 * 1024;
/** The walk stops after this many files searched (truncated). */
export const MAX_GREP_FILES = 100_000;
/** A batch holds up to this many files, in one shared buffer of SLOT_BYTES (a larger file has a buffer of its own). */
const BATCH_FILES = 128;
const SLOT_BYTES = 512 * 1024;
/** Free batch buffers kept for the next batches and calls (3 MiB at most). */
const MAX_FREE_SLOTS = 6;
const MAX_IDLE_WORKERS = 2;

export interface GrepRequest {
  pattern: string;
  path?: string;
  glob?: string;
  caseInsensitive: boolean;
  maxResults: number;
  timeoutMs: number;
  /** The bytes to search for a file read from disk (a bound file behind its target answers its target's text). */
  substitute?: (path: string, bytes: Uint8Array) => Uint8Array;
}

export type GrepOutcome =
  | { kind: 'done'; matches: GrepMatch[]; truncated: boolean }
  | { kind: 'refused'; refusal: WorkspacePathRefusal }
  | { kind: 'invalid_pattern'; message: string }
  | { kind: 'timeout'; budgetMs: number };

/** The grep budget from PALIMPSEST_GREP_TIMEOUT_MS (a positive integer of milliseconds), else the default. */
export function grepTimeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env[GREP_TIMEOUT_ENV];
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_GREP_TIMEOUT_MS;
}

/**
 * The flags the pattern is compiled with: Unicode mode (code points, `\u{…}`) when the pattern is valid
 * in it, else the legacy mode (which takes escapes like `\-` that Unicode mode refuses). Compiling runs
 * no match, so it is safe on the event loop.
 */
function flagsFor(pattern: string, caseInsensitive: boolean): { flags: string } | { error: string } {
  const i = caseInsensitive ? 'i' : '';
  try {
    new RegExp(pattern, `u${i}`);
    return { flags: `u${i}` };
  } catch {
    try {
      new RegExp(pattern, i);
      return { flags: i };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }
}

const idle: Worker[] = [];

/** A new worker; one that fails or exits is dropped from the pool (a call using it hears of it through its channel). */
function spawnWorker(): Worker {
  const worker = new Worker(GREP_WORKER_SOURCE, { eval: true });
  const drop = () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  };
  worker.on('error', drop);
  worker.on('exit', drop);
  return worker;
}

function acquire(): Worker {
  const worker = idle.pop() ?? spawnWorker();
  worker.ref();
  return worker;
}

function release(worker: Worker): void {
  worker.unref();
  if (idle.length < MAX_IDLE_WORKERS) idle.push(worker);
  else void worker.terminate();
}

/**
 * One call's conversation with its worker: batches are answered in the order they were posted, and the
 * deadline settles every batch still out as 'timeout' (the worker is terminated then, by the caller).
 */
class WorkerChannel {
  private readonly waiting: { resolve(result: GrepBatchResult | 'timeout'): void; reject(error: Error): void }[] = [];
  private readonly timer: NodeJS.Timeout;
  private timedOut = false;
  private readonly onMessage = (result: GrepBatchResult) => this.waiting.shift()?.resolve(result);
  private readonly onError = (error: Error) => {
    for (const w of this.waiting.splice(0)) w.reject(error);
  };
  private readonly onExit = (code: number) => this.onError(new Error(`the grep worker exited (code ${code}) before answering`));

  constructor(private readonly worker: Worker, deadline: number) {
    worker.on('message', this.onMessage);
    worker.on('error', this.onError);
    worker.on('exit', this.onExit);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      for (const w of this.waiting.splice(0)) w.resolve('timeout');
    }, Math.max(0, deadline - Date.now()));
  }

  post(batch: GrepBatch): Promise<GrepBatchResult | 'timeout'> {
    if (this.timedOut) return Promise.resolve('timeout');
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(batch);
    });
  }

  close(): void {
    clearTimeout(this.timer);
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
  }
}

/** Search the workspace: matches in walk order, at most maxResults, truncated when there were more or a cap stopped the walk. */
export async function grepWorkspace(root: WorkspaceRoot, req: GrepRequest): Promise<GrepOutcome> {
  const deadline = Date.now() + req.timeoutMs;
  const compiled = flagsFor(req.pattern, req.caseInsensitive);
  if ('error' in compiled) return { kind: 'invalid_pattern', message: compiled.error };
  const sources = sourcesOf(root, req);
  if (sources.kind === 'refused') return sources;
  const worker = acquire();
  const channel = new WorkerChannel(worker, deadline);
  try {
    const outcome = await searchFiles(root, sources.files, channel, req, compiled.flags, deadline);
    if (outcome.kind === 'timeout') void worker.terminate();
    else release(worker);
    return outcome;
  } catch (error) {
    void worker.terminate();
    throw error;
  } finally {
    channel.close();
    sources.close();
  }
}

/** A file to search: one the walk listed (read when its turn comes), or the file the call names, already read. */
type Source = WalkedEntry | { path: string; bytes: Buffer };

type Sources = { kind: 'files'; files: Iterable<Source>; close(): void } | { kind: 'refused'; refusal: WorkspacePathRefusal };

/**
 * How a listed file is opened: by its name inside the directory handle the walk holds, never following a
 * link (O_NOFOLLOW), and without blocking should the name have become a FIFO since it was listed.
 */
const LISTED_FILE_OPEN = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/**
 * Why the open of a listed file fails when the name changed since the listing: removed (ENOENT), a link
 * now (ELOOP), a socket now (ENXIO), its directory no longer one (ENOTDIR). The file is skipped, as a
 * listing made a moment later would skip it.
 */
const CHANGED_SINCE_LISTED = new Set(['ENOENT', 'ELOOP', 'ENXIO', 'ENOTDIR']);

/**
 * Read a file the walk listed into the batches. The walk's listing said it is a regular file; the open
 * refuses a link put in its place since, and the opened descriptor's fstat decides: searched only when it
 * is a regular file of at most MAX_GREP_FILE_BYTES (anything else swapped in is closed unread), and at
 * most the size fstat gave is read. One open, one fstat, the reads and one close: the listing's type
 * stands in for the lstat a named read makes (workspace-walk.ts), since the answer to a file that changed
 * is the same either way, skipping it.
 */
function readListed(root: WorkspaceRoot, entry: WalkedEntry, batches: Batches): void {
  let fd: number;
  try {
    fd = openSync(root.handlePath(entry.dirFd, entry.name), LISTED_FILE_OPEN);
  } catch (e) {
    if (CHANGED_SINCE_LISTED.has((e as NodeJS.ErrnoException).code ?? '')) return;
    throw e;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_GREP_FILE_BYTES) return;
    batches.add(entry.path, stats.size, fd);
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a source into the batches (nothing when it is skipped). */
function readSource(root: WorkspaceRoot, source: Source, batches: Batches): void {
  if ('dirFd' in source) readListed(root, source, batches);
  else batches.add(source.path, source.bytes.length, source.bytes);
}

function* filesOf(entries: Iterable<WalkedEntry>): Generator<Source, void, void> {
  for (const entry of entries) if (entry.type === 'file') yield entry;
}

/**
 * What the call searches: the files of the directory `path` names (the root by default), walked like a
 * recursive listing and narrowed by glob; or, when `path` names a regular file, that file alone (glob
 * and .gitignore do not apply to a file named outright, as with ripgrep).
 */
function sourcesOf(root: WorkspaceRoot, req: GrepRequest): Sources {
  const walk = walkWorkspace(root, req.path, { recursive: true, glob: req.glob, sizes: false });
  if (walk.kind === 'walk') return { kind: 'files', files: filesOf(walk.entries), close: () => walk.entries.return() };
  if (walk.refusal.code !== 'PATH_NOT_FOUND' || req.path === undefined) return walk;
  const file = readWorkspaceFileUpTo(root, req.path, MAX_GREP_FILE_BYTES);
  if (file.kind === 'refused') return file.refusal.code === 'PATH_NOT_A_FILE' ? walk : file;
  return { kind: 'files', files: file.bytes ? [{ path: file.path, bytes: file.bytes }] : [], close: () => undefined };
}

/** Read up to `size` bytes of the file `fd` into `into` from `at` (fewer when it shrank meanwhile): how many were read. */
function readAt(fd: number, into: Buffer, at: number, size: number): number {
  let filled = 0;
  for (let n = 1; filled < size && n > 0; filled += n) n = readSync(fd, into, at + filled, size - filled, filled);
  return filled;
}

/** Files packed in one shared buffer, for one message to the worker. */
interface Batch {
  buffer: SharedArrayBuffer;
  bytes: Buffer;
  used: number;
  files: GrepBatchFile[];
}

/**
 * Batch buffers: shared with the worker (a message carries a reference, neither a copy nor a transfer,
 * which both cost more than reading the files), and reused once the worker has answered for them.
 */
const freeSlots: SharedArrayBuffer[] = [];

function slot(size: number): SharedArrayBuffer {
  return size <= SLOT_BYTES ? (freeSlots.pop() ?? new SharedArrayBuffer(SLOT_BYTES)) : new SharedArrayBuffer(size);
}

/** A buffer the worker answered for (a worker stopped at the deadline returns none: it may still have read them). */
function freeSlot(buffer: SharedArrayBuffer): void {
  if (buffer.byteLength === SLOT_BYTES && freeSlots.length < MAX_FREE_SLOTS) freeSlots.push(buffer);
}

/**
 * The batches a call fills: the current one takes files until BATCH_FILES of them, or until the next does
 * not fit in its buffer; then it is sealed, ready to post.
 */
class Batches {
  private current: Batch | null = null;
  readonly sealed: Batch[] = [];

  constructor(private readonly substitute: GrepRequest['substitute']) {}

  /**
   * Add the file at `path` of at most `size` bytes, read from the descriptor `from` or copied from the
   * bytes `from`. The bytes to search are then the substitute's, when it has one.
   */
  add(path: string, size: number, from: number | Uint8Array, substituted = false): void {
    const batch = this.room(size);
    const start = batch.used;
    let written = size;
    if (typeof from === 'number') written = readAt(from, batch.bytes, start, size);
    else batch.bytes.set(from, start);
    if (this.substitute && !substituted) {
      const read = batch.bytes.subarray(start, start + written);
      const other = this.substitute(path, read);
      if (other !== read) return this.add(path, other.length, other, true);
    }
    batch.used = start + written;
    batch.files.push({ path, start, end: batch.used });
    if (batch.files.length >= BATCH_FILES) this.seal();
  }

  /** The current batch, sealed and ready to post (when it holds a file). */
  seal(): void {
    if (this.current && this.current.files.length > 0) this.sealed.push(this.current);
    else if (this.current) freeSlot(this.current.buffer);
    this.current = null;
  }

  /** Batches not posted (the call stopped early): their buffers are free again. */
  release(): void {
    this.seal();
    for (const batch of this.sealed.splice(0)) freeSlot(batch.buffer);
  }

  private room(size: number): Batch {
    if (this.current && this.current.bytes.length - this.current.used < size) this.seal();
    if (this.current) return this.current;
    const buffer = slot(size);
    return (this.current = { buffer, bytes: Buffer.from(buffer), used: 0, files: [] });
  }
}

/** The matches gathered so far; truncated once a batch held more than fit. */
class Gathered {
  readonly matches: GrepMatch[] = [];
  truncated = false;

  constructor(private readonly max: number) {}

  take(result: GrepBatchResult): void {
    const room = this.max - this.matches.length;
    if (result.more || result.matches.length > room) this.truncated = true;
    this.matches.push(...result.matches.slice(0, room));
  }
}

/**
 * Read the walked files a batch at a time and search them, keeping up to two batches in the worker so
 * the reading of one overlaps the search of the one before. Each batch may return up to maxResults (and
 * says when it had more); answers are taken in order, so the matches are the first in walk order.
 */
async function searchFiles(root: WorkspaceRoot, sources: Iterable<Source>, channel: WorkerChannel, req: GrepRequest, flags: string, deadline: number): Promise<GrepOutcome> {
  const gathered = new Gathered(req.maxResults);
  const inFlight: { batch: Batch; answer: Promise<GrepBatchResult | 'timeout'> }[] = [];
  const timeout: GrepOutcome = { kind: 'timeout', budgetMs: req.timeoutMs };
  const literals = requiredLiterals(req.pattern);
  const batches = new Batches(req.substitute);
  const post = (batch: Batch) => {
    const answer = channel.post({ pattern: req.pattern, flags, literals, remaining: req.maxResults, maxLineChars: MAX_GREP_LINE_CHARS, buffer: batch.buffer, files: batch.files });
    inFlight.push({ batch, answer });
  };
  /** The oldest batch's answer; its buffer is free again once answered. */
  const answered = async (): Promise<GrepBatchResult | 'timeout'> => {
    const { batch, answer } = inFlight.shift()!;
    const result = await answer;
    if (result !== 'timeout') freeSlot(batch.buffer);
    return result;
  };
  let searched = 0;
  try {
    for (const source of sources) {
      if (searched++ === MAX_GREP_FILES) {
        gathered.truncated = true;
        break;
      }
      readSource(root, source, batches);
      if (Date.now() >= deadline) batches.seal();
      while (batches.sealed.length > 0 && !gathered.truncated) {
        post(batches.sealed.shift()!);
        if (inFlight.length < 2) continue;
        const result = await answered();
        if (result === 'timeout') return timeout;
        gathered.take(result);
      }
      if (gathered.truncated) break;
    }
    if (!gathered.truncated) {
      batches.seal();
      for (const batch of batches.sealed.splice(0)) post(batch);
    }
    while (inFlight.length > 0) {
      const result = await answered();
      if (result === 'timeout') return timeout;
      if (!gathered.truncated) gathered.take(result);
    }
    return { kind: 'done', matches: gathered.matches, truncated: gathered.truncated };
  } finally {
    batches.release();
  }
}
