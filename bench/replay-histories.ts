import type { AppContext } from '@palimpsest/application/app-context';
import { dispatchRequest as dispatch } from '@palimpsest/application/dispatch/dispatch';

/**
 * Generated target histories for the replay benchmark: a document of numbered ASCII lines, then
 * transactions of real tx/2 span operations through the application, each rewriting a few lines at
 * pseudo-random places (a fixed seed, so every run and backend folds the same history).
 */

type Answer = Record<string, any>;

/** ASCII lines of about 60 bytes, `bytes` long in total, ending with a newline. */
export function linesDocument(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `${String(i).padStart(6, '0')} the quick brown fox jumps over the lazy dog, v0`;
    lines.push(line);
    size += line.length + 1;
  }
  return (lines.join('\n') + '\n').slice(-bytes);
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Span {
  start: number;
  end: number;
  expected_text: string;
  replace: string;
}

/** The whole line around a random offset, and a rewrite of it (ASCII: code points = UTF-16 units). */
function lineEdit(text: string, random: () => number, version: number): Span {
  const at = Math.floor(random() * text.length);
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at);
  const end = nl < 0 ? text.length : nl;
  const line = text.slice(start, end);
  const replace = random() < 0.5 ? line.replace(/v\d+$/, `v${version}`) : `${line.slice(0, 20)} edited at ${version}`;
  return { start, end, expected_text: line, replace };
}

/**
 * `transactions` accepted tx/2 transactions of 1 to 3 line rewrites each. Operations apply in order to
 * the buffer the earlier ones left, so they are taken from the end of the text towards its start.
 */
export async function generateHistory(ctx: AppContext, content: string, transactions: number, seed: number): Promise<string> {
  const init = (await dispatch(ctx, 'palimpsest_initialize_target', { filename: `replay-${content.length}.txt`, content })) as Answer;
  if (init.status !== 'ok') throw new Error(`initialize failed: ${JSON.stringify(init)}`);
  const id = init.target_file_id as string;
  const random = mulberry32(seed);
  let text = content;
  for (let v = 0; v < transactions; v++) {
    const spans: Span[] = [];
    for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
      const s = lineEdit(text, random, v + 1);
      if (spans.every((o) => s.end < o.start || s.start > o.end)) spans.push(s);
    }
    spans.sort((a, b) => b.start - a.start);
    const r = (await dispatch(ctx, 'palimpsest_submit_operations', {
      target_file_id: id,
      intent: `rewrite ${spans.length} lines`,
      expected_target_version: v,
      operations: spans.map((s) => ({ op: 'span', ...s })),
    })) as Answer;
    if (r.status !== 'accepted') throw new Error(`submit ${v} failed: ${JSON.stringify(r).slice(0, 800)}`);
    for (const s of spans) text = text.slice(0, s.start) + s.replace + text.slice(s.end);
  }
  return id;
}
