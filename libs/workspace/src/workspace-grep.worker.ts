/**
 * The body of a grep worker thread (node:worker_threads): the only place a caller's regular expression
 * runs, so a pattern that backtracks for ever stalls this thread, never the service's event loop; the
 * main thread terminates it at the deadline (workspace-grep.ts).
 *
 * It is started from its source (`new Worker(GREP_WORKER_SOURCE, { eval: true })`), which is why it
 * imports nothing and references nothing outside its own body: the same text runs from the build and
 * under the test runner's transpiler, with no worker file to locate on disk.
 */

/** A file of a batch: its bytes are `[start, end)` of the batch's buffer. */
export interface GrepBatchFile {
  path: string;
  start: number;
  end: number;
}

export interface GrepBatch {
  pattern: string;
  flags: string;
  /** Runs of plain ASCII every match contains (workspace-grep.literal.ts), longest first: only lines holding the first are tested. */
  literals: string[];
  /** How many more matches the call can still return: the worker stops after one more (to know there are more). */
  remaining: number;
  maxLineChars: number;
  /** The batch's files packed in one buffer, shared with the caller (who reuses it once this batch is answered). */
  buffer: SharedArrayBuffer;
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
  interface Compiled {
    key: string;
    regex: RegExp;
    /** Each literal, searched in the text with the pattern's flags (and g, to search from a position). */
    literals: RegExp[];
    /** The literals' bytes (ASCII: a byte a character), searched in a file's bytes before decoding; none under the i flag. */
    literalBytes: Buffer[];
  }
  let compiled: Compiled | null = null;

  const compile = (batch: GrepBatch): Compiled => {
    const key = `${batch.flags}/${batch.literals.join('/')}/${batch.pattern}`;
    if (compiled?.key === key) return compiled;
    const { literals, flags } = batch;
    compiled = {
      key,
      regex: new RegExp(batch.pattern, flags),
      literals: literals.map((l) => new RegExp(l.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), `${flags}g`)),
      // Under i, a letter also matches other code points (k matches the Kelvin sign under iu): no byte test.
      literalBytes: flags.includes('i') ? [] : literals.map((l) => Buffer.from(l, 'latin1')),
    };
    return compiled;
  };

  /** Whether the text holds every literal (the file's bytes were not searched for them, under i). */
  const holdsAll = (text: string, literals: RegExp[]): boolean =>
    literals.every((l) => {
      l.lastIndex = 0;
      return l.test(text);
    });

  /** The line cut to at most `max` UTF-16 units, never between the halves of a surrogate pair. */
  const bounded = (line: string, max: number): string => {
    if (line.length <= max) return line;
    const end = line.charCodeAt(max - 1) >= 0xd800 && line.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
    return `${line.slice(0, end)}…`;
  };

  /** The text of a file, or null when it is binary (a NUL in its first 8 KiB) or not UTF-8: skipped like ripgrep does. */
  const textOf = (bytes: Uint8Array): string | null => {
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return null;
    try {
      return decoder.decode(bytes);
    } catch {
      return null;
    }
  };

  const search = (batch: GrepBatch): GrepBatchResult => {
    const c = compile(batch);
    const matches: GrepMatch[] = [];
    const all = Buffer.from(batch.buffer);
    for (const file of batch.files) {
      const bytes = all.subarray(file.start, file.end);
      // A file missing one literal's bytes holds no match, whatever its encoding: not decoded.
      if (!c.literalBytes.every((l) => bytes.indexOf(l) >= 0)) continue;
      const text = textOf(bytes);
      if (text === null) continue;
      if (c.literalBytes.length === 0 && !holdsAll(text, c.literals)) continue;
      const literal = c.literals.length > 0 ? c.literals[0] : null;
      // The lines to test: every line, or only those holding the first literal (searched from the line `from` starts).
      let lineNo = 1; // the number of the line starting at `from`
      for (let from = 0; from < text.length; lineNo++) {
        let start = from;
        if (literal !== null) {
          literal.lastIndex = from;
          if (!literal.test(text)) break;
          // The literal holds no line break: its line starts after the last one before its end.
          start = text.lastIndexOf('\n', literal.lastIndex - 1) + 1;
          for (let nl = text.indexOf('\n', from); nl >= 0 && nl < start; nl = text.indexOf('\n', nl + 1)) lineNo++;
        }
        let end = text.indexOf('\n', start);
        if (end < 0) end = text.length;
        from = end + 1;
        const line = text.charCodeAt(end - 1) === 13 && end > start ? text.slice(start, end - 1) : text.slice(start, end);
        if (!c.regex.test(line)) continue;
        if (matches.length === batch.remaining) return { matches, more: true };
        matches.push({ path: file.path, line: lineNo, text: bounded(line, batch.maxLineChars) });
      }
    }
    return { matches, more: false };
  };

  parentPort?.on('message', (batch: GrepBatch) => parentPort.postMessage(search(batch)));
}

export const GREP_WORKER_SOURCE = `(${grepWorkerMain.toString()})();`;
