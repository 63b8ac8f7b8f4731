import { closeSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import { GREP_WORKER_SOURCE, type GrepBatch, type GrepBatchFile, type GrepBatchResult, type GrepMatch } from './workspace-grep.worker';
import { walkWorkspace, type WalkedEntry } from './workspace-listing';
import type { WorkspaceRoot } from './workspace-root';
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
}

export type GrepOutcome =
  | { kind: 'done'; matches: GrepMatch[]; truncated: boolean }
  | { kind: 'refused'; refusal: WorkspacePathRefusal }
  | { kind: 'invalid_pattern'; message: string }
  | { kind: 'timeout'; budgetMs: number };

/** The grep budget from PALIMPSEST_GREP_TIMEOUT_MS (a positive integer of milliseconds), else the default. */
export function grepTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
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

function acquire(): Worker {
  const worker = idle.pop() ?? new Worker(GREP_WORKER_SOURCE, { eval: true });
  worker.ref();
  return worker;
}

function release(worker: Worker): void {
  worker.unref();
  if (idle.length < MAX_IDLE_WORKERS) idle.push(worker);
  else void worker.terminate();
}

/** Post one batch and wait for its answer, or for the deadline (which terminates the worker). */
function run(worker: Worker, batch: GrepBatch, deadline: number): Promise<GrepBatchResult | 'timeout'> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      void worker.terminate();
      resolve('timeout');
    }, Math.max(0, deadline - Date.now()));
    const onMessage = (result: GrepBatchResult) => {
      cleanup();
      resolve(result);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.postMessage(batch);
  });
}

/** The bytes of a walked file, read through its directory's handle; null when it is no longer a plain file. */
function readEntry(root: WorkspaceRoot, entry: WalkedEntry): Uint8Array | null {
  const opened = openNode(root.handlePath(entry.dirFd, entry.name), 'file', { shown: JSON.stringify(entry.path) });
  if (opened.kind !== 'opened') return null;
  try {
    return readFileSync(opened.fd);
  } finally {
    closeSync(opened.fd);
  }
}

/** Search the workspace: matches in walk order, at most maxResults, truncated when there were more or a cap stopped the walk. */
export async function grepWorkspace(root: WorkspaceRoot, req: GrepRequest): Promise<GrepOutcome> {
  const deadline = Date.now() + req.timeoutMs;
  const compiled = flagsFor(req.pattern, req.caseInsensitive);
  if ('error' in compiled) return { kind: 'invalid_pattern', message: compiled.error };
  const walk = walkWorkspace(root, req.path, { recursive: true, glob: req.glob });
  if (walk.kind === 'refused') return walk;
  const matches: GrepMatch[] = [];
  const worker = acquire();
  let files: GrepBatchFile[] = [];
  let bytes = 0;
  let searched = 0;
  const flush = async (): Promise<'more' | 'timeout' | 'go'> => {
    const batch: GrepBatch = { pattern: req.pattern, flags: compiled.flags, remaining: req.maxResults - matches.length, maxLineChars: MAX_GREP_LINE_CHARS, files };
    files = [];
    bytes = 0;
    const result = await run(worker, batch, deadline);
    if (result === 'timeout') return 'timeout';
    matches.push(...result.matches);
    return result.more ? 'more' : 'go';
  };
  let state: 'more' | 'timeout' | 'go' | 'capped' | 'failed' = 'go';
  try {
    for (const entry of walk.entries) {
      if (entry.type !== 'file' || (entry.size ?? 0) > MAX_GREP_FILE_BYTES) continue;
      if (searched++ === MAX_GREP_FILES) {
        state = 'capped';
        break;
      }
      const content = readEntry(root, entry);
      if (content === null) continue;
      files.push({ path: entry.path, bytes: content });
      bytes += content.length;
      if (files.length < BATCH_FILES && bytes < BATCH_BYTES && Date.now() < deadline) continue;
      state = await flush();
      if (state !== 'go') break;
    }
    if (state === 'go' && files.length > 0) state = await flush();
  } catch (error) {
    state = 'failed';
    throw error;
  } finally {
    walk.entries.return();
    if (state === 'timeout' || state === 'failed') void worker.terminate();
    else release(worker);
  }
  if (state === 'timeout') return { kind: 'timeout', budgetMs: req.timeoutMs };
  return { kind: 'done', matches, truncated: state !== 'go' };
}
