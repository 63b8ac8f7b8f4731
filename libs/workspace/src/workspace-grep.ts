import { closeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import { GREP_WORKER_SOURCE, type GrepBatch, type GrepBatchFile, type GrepBatchResult, type GrepMatch } from './workspace-grep.worker';
import { walkWorkspace, type WalkedEntry } from './workspace-listing';
import type { WorkspaceRoot } from './workspace-root';
import { readOpenedUpTo, readWorkspaceFileUpTo } from './workspace-file-reader';
import { openNode } from './workspace-walk';

/**
 * grep over the workspace (seed 004). The files are chosen by the recursive listing's rules
 * (workspace-listing.ts: .gitignore, .git and node_modules skipped, links never followed) and read here,
 * through the root's handle; their text is searched in a worker thread, a batch at a time, so the
 * caller's regular expression never runs on the event loop. The whole call has one time budget: at the
 * deadline the worker is terminated (V8 interrupts a backtracking regex) and the call answers timeout.
 *
 * Workers are kept in a small idle pool: starting one costs a few milliseconds (bench/file-grep.ts
 * prints it), a pooled one is ready at once, and a worker that timed out is never reused.
 */

export const DEFAULT_GREP_TIMEOUT_MS = 1000;
export const GREP_TIMEOUT_ENV = 'PALIMPSEST_GREP_TIMEOUT_MS';
/** A matched line is returned cut to this many UTF-16 units (and an ellipsis). */
export const MAX_GREP_LINE_CHARS = 500;
/** Files larger than this are not searched (their size is known from the listing before any read). */
export const MAX_GREP_FILE_BYTES = 16 * 1024 * 1024;
/** The walk stops after this many files searched (truncated). */
export const MAX_GREP_FILES = 100_000;
const BATCH_BYTES = 1 << 20;
const BATCH_FILES = 128;
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

/** The bytes of a walked file, read through its directory's handle; null when it is no longer a plain file or is too large. */
function readEntry(root: WorkspaceRoot, entry: WalkedEntry): Uint8Array | null {
  const opened = openNode(root.handlePath(entry.dirFd, entry.name), 'file', { shown: JSON.stringify(entry.path) });
  if (opened.kind !== 'opened') return null;
  try {
    return readOpenedUpTo(opened.fd, Number(opened.stats.size), MAX_GREP_FILE_BYTES);
  } finally {
    closeSync(opened.fd);
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
    const outcome = await searchFiles(sources.files, channel, req, compiled.flags, deadline);
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

interface Source {
  path: string;
  read(): Uint8Array | null;
}

type Sources = { kind: 'files'; files: Iterable<Source>; close(): void } | { kind: 'refused'; refusal: WorkspacePathRefusal };

function* filesOf(root: WorkspaceRoot, entries: Iterable<WalkedEntry>, substitute: GrepRequest['substitute']): Generator<Source, void, void> {
  for (const entry of entries) {
    if (entry.type !== 'file') continue;
    yield { path: entry.path, read: () => {
      const bytes = readEntry(root, entry);
      return bytes && substitute ? substitute(entry.path, bytes) : bytes;
    } };
  }
}

/**
 * What the call searches: the files of the directory `path` names (the root by default), walked like a
 * recursive listing and narrowed by glob; or, when `path` names a regular file, that file alone (glob
 * and .gitignore do not apply to a file named outright, as with ripgrep).
 */
function sourcesOf(root: WorkspaceRoot, req: GrepRequest): Sources {
  const walk = walkWorkspace(root, req.path, { recursive: true, glob: req.glob, sizes: false });
  if (walk.kind === 'walk') return { kind: 'files', files: filesOf(root, walk.entries, req.substitute), close: () => walk.entries.return() };
  if (walk.refusal.code !== 'PATH_NOT_FOUND' || req.path === undefined) return walk;
  const file = readWorkspaceFileUpTo(root, req.path, MAX_GREP_FILE_BYTES);
  if (file.kind === 'refused') return file.refusal.code === 'PATH_NOT_A_FILE' ? walk : file;
  const bytes = file.bytes && req.substitute ? req.substitute(file.path, file.bytes) : file.bytes;
  return { kind: 'files', files: [{ path: file.path, read: () => bytes }], close: () => undefined };
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
async function searchFiles(sources: Iterable<Source>, channel: WorkerChannel, req: GrepRequest, flags: string, deadline: number): Promise<GrepOutcome> {
  const gathered = new Gathered(req.maxResults);
  const inFlight: Promise<GrepBatchResult | 'timeout'>[] = [];
  const timeout: GrepOutcome = { kind: 'timeout', budgetMs: req.timeoutMs };
  let files: GrepBatchFile[] = [];
  let bytes = 0;
  let searched = 0;
  const post = () => {
    inFlight.push(channel.post({ pattern: req.pattern, flags, remaining: req.maxResults, maxLineChars: MAX_GREP_LINE_CHARS, files }));
    files = [];
    bytes = 0;
  };
  for (const source of sources) {
    if (searched++ === MAX_GREP_FILES) {
      gathered.truncated = true;
      break;
    }
    const content = source.read();
    if (content === null) continue;
    files.push({ path: source.path, bytes: content });
    bytes += content.length;
    if (files.length < BATCH_FILES && bytes < BATCH_BYTES && Date.now() < deadline) continue;
    post();
    if (inFlight.length < 2) continue;
    const result = await inFlight.shift()!;
    if (result === 'timeout') return timeout;
    gathered.take(result);
    if (gathered.truncated) break;
  }
  if (files.length > 0 && !gathered.truncated) post();
  for (const pending of inFlight) {
    const result = await pending;
    if (result === 'timeout') return timeout;
    if (!gathered.truncated) gathered.take(result);
  }
  return { kind: 'done', matches: gathered.matches, truncated: gathered.truncated };
}
