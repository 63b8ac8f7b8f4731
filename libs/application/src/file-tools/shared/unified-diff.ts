import { createTwoFilesPatch } from 'diff';

const CONTEXT_LINES = 3;

/** Offset of the start of the line holding `at`, `extra` lines further back. */
function lineStartBefore(text: string, at: number, extra: number): number {
  let i = at;
  for (let n = 0; n <= extra; n++) {
    if (i === 0) return 0;
    const nl = text.lastIndexOf('\n', i - 1);
    if (nl < 0) return 0;
    i = nl;
  }
  return i + 1;
}

/** Offset just past the end of the line holding `at - 1`, `extra` lines further on. */
function lineEndAfter(text: string, at: number, extra: number): number {
  let i = at;
  for (let n = 0; n <= extra; n++) {
    const nl = text.indexOf('\n', i);
    if (nl < 0) return text.length;
    i = nl + 1;
  }
  return i;
}

const linesIn = (text: string, end: number): number => {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
};

/**
 * The unified diff of one edit (seed 004: every edit answers one), over the canonical LF text. Only the
 * changed region and its context lines are diffed, so a one-line edit of a 1 MB file costs what the
 * region costs; hunk line numbers are the whole file's.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  let prefix = 0;
  const shortest = Math.min(before.length, after.length);
  while (prefix < shortest && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < shortest - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  const start = lineStartBefore(before, prefix, CONTEXT_LINES);
  const beforeEnd = lineEndAfter(before, before.length - suffix, CONTEXT_LINES);
  const afterEnd = lineEndAfter(after, after.length - suffix, CONTEXT_LINES);
  const shift = linesIn(before, start);
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before.slice(start, beforeEnd), after.slice(start, afterEnd), '', '', { context: CONTEXT_LINES });
  if (shift === 0) return patch;
  return patch.replace(/^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@/gm, (_m, a: string, b = '', c: string, d = '') => `@@ -${Number(a) + shift}${b} +${Number(c) + shift}${d} @@`);
}
