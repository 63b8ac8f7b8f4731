/**
 * The body of a grep worker thread (node:worker_threads): the only place a caller's regular expression
 * runs, so a pattern that backtracks for ever stalls this thread, never the service's event loop; the
 * main thread terminates it at the deadline (workspace-grep.ts).
 *
 * It is started from its source (`new Worker(GREP_WORKER_SOURCE, { eval: true })`), which is why it
 * imports nothing and references nothing outside its own body: the same text runs from the build and
 * under the test runner's transpiler, with no worker file to locate on disk.
 */

export interface GrepBatchFile {
  path: string;
  bytes: Uint8Array;
}

export interface GrepBatch {
  pattern: string;
  flags: string;
  /** How many more matches the call can still return: the worker stops after one more (to know there are more). */
  remaining: number;
  maxLineChars: number;
  files: GrepBatchFile[];
}

export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export interface GrepBatchResult {
  matches: GrepMatch[];
  /** True when the batch held more matches than `remaining`. */
  more: boolean;
}

function grepWorkerMain(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort } = require('node:worker_threads') as typeof import('node:worker_threads');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const BINARY_SNIFF_BYTES = 8192;
  let compiled: { key: string; regex: RegExp } | null = null;

  const regexFor = (pattern: string, flags: string): RegExp => {
    const key = `${flags}/${pattern}`;
    if (compiled?.key !== key) compiled = { key, regex: new RegExp(pattern, flags) };
    return compiled.regex;
  };

  /** The line cut to at most `max` UTF-16 units, never between the halves of a surrogate pair. */
  const bounded = (line: string, max: number): string => {
    if (line.length <= max) return line;
    const end = line.charCodeAt(max - 1) >= 0xd800 && line.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
    return `${line.slice(0, end)}…`;
  };

  const textOf = (bytes: Uint8Array): string | null => {
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return null;
    try {
      return decoder.decode(bytes);
    } catch {
      return null;
    }
  };

  const search = (batch: GrepBatch): GrepBatchResult => {
    const regex = regexFor(batch.pattern, batch.flags);
    const matches: GrepMatch[] = [];
    for (const file of batch.files) {
      const text = textOf(file.bytes);
      if (text === null) continue; // binary: skipped like ripgrep does
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
        if (!regex.test(line)) continue;
        if (matches.length === batch.remaining) return { matches, more: true };
        matches.push({ path: file.path, line: i + 1, text: bounded(line, batch.maxLineChars) });
      }
    }
    return { matches, more: false };
  };

  parentPort?.on('message', (batch: GrepBatch) => parentPort.postMessage(search(batch)));
}

export const GREP_WORKER_SOURCE = `(${grepWorkerMain.toString()})();`;
