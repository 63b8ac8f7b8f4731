import type { AnyAnswer } from './outcome';
import { codePointLength } from '@palimpsest/core/text/code-points';
import { elementSentBytes, MAX_RESULT_BYTES, prefixWithin, sentBytes, stringSentBytes } from './result-bytes';

import type { NextAction } from '@palimpsest/core/errors/error-model';
import type { AnswerNotes, TruncatedField } from './answer-notes';
import { readTarget } from './catalog/operations/reads.operations';

export type { TruncatedField } from './answer-notes';

/** Room kept for the notes this adds (result_truncated, a next action). */
const NOTES_BYTES = 4096;
/** Nothing smaller is worth cutting; a few rounds cut the few large values an answer holds. */
const MIN_CUT_BYTES = 256;
const MAX_ROUNDS = 16;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Fields holding a target's text, which palimpsest_read_target continues from a code-point offset. */
const TARGET_TEXT_FIELDS = new Set(['current_content', 'content', 'text']);

type Container = Record<string, unknown> | unknown[];
interface Node {
  parent: Container;
  key: string | number;
  path: string;
  value: string | unknown[];
  cost: number;
}

/**
 * The last bound every answer passes (dispatch): one still over MAX_RESULT_BYTES as sent — a target's
 * whole text in get_target, a large page — has its largest string or array cut until it fits, and says
 * so in `result_truncated`; a target's text continues with palimpsest_read_target from the returned
 * code points. Operations whose answers grow with the data bound themselves first and continue in their
 * own terms (read_file's offset, the attempt log's next_sequence); this catches the rest.
 */
export function withinResultBytes<A extends AnyAnswer>(outcome: A): A & AnswerNotes {
  // A JSON text unit is sent as at most 12 bytes (a non-ASCII one, escaped twice), a printable ASCII one as
  // at most 3 (once as itself, at most twice escaped in the text): most answers need no count.
  const literal = JSON.stringify(outcome);
  if (literal.length * 12 + NOTES_BYTES <= MAX_RESULT_BYTES || (literal.length * 3 + NOTES_BYTES <= MAX_RESULT_BYTES && PRINTABLE_ASCII.test(literal))) return outcome;
  if (sentBytes(outcome) <= MAX_RESULT_BYTES) return outcome;
  const answer = structuredClone(outcome);
  const cut: TruncatedField[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const excess = sentBytes(answer) - MAX_RESULT_BYTES + NOTES_BYTES;
    const node = excess > 0 ? largest(answer) : null;
    if (!node || node.cost < MIN_CUT_BYTES) break;
    cut.push(shrink(node, Math.max(0, node.cost - excess)));
  }
  const next = cut.filter((c) => TARGET_TEXT_FIELDS.has(c.path.slice(2)) && typeof answer.target_file_id === 'string');
  return {
    ...answer,
    result_truncated: cut,
    ...(next.length ? { next_actions: [...(Array.isArray(answer.next_actions) ? answer.next_actions : []), ...next.map((c) => readRest(String(answer.target_file_id), c))] } : {}),
  };
}

const readRest = (targetId: string, c: TruncatedField): NextAction => ({
  operation: readTarget.name,
  reason: `${c.path.slice(2)} was cut at ${c.returned} of ${c.total} code points to keep the answer within its byte budget: read on from there`,
  params: { target_file_id: targetId, start: c.returned },
});

/**
 * The string or array (below the top) that costs the most sent bytes. An array mostly made of one
 * element is not cut itself: what is large inside that element is.
 */
function largest(root: Record<string, unknown>): Node | null {
  let best: Node | null = null;
  const visit = (parent: Container, key: string | number, path: string, value: unknown) => {
    if (typeof value === 'string' || Array.isArray(value)) {
      const cost = typeof value === 'string' ? stringSentBytes(value) : elementSentBytes(value);
      const dominated = Array.isArray(value) && value.some((v) => 2 * elementSentBytes(v) > cost);
      if (!dominated && (!best || cost > best.cost)) best = { parent, key, path, value, cost };
    }
    if (Array.isArray(value)) value.forEach((v, i) => visit(value, i, `${path}[${i}]`, v));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(value as Record<string, unknown>, k, `${path}.${k}`, v);
  };
  for (const [k, v] of Object.entries(root)) visit(root, k, `$.${k}`, v);
  return best;
}

/** Cut the node to at most `budget` sent bytes: a prefix of a string (whole characters), the first elements of an array. */
function shrink(node: Node, budget: number): TruncatedField {
  const set = (v: unknown) => ((node.parent as Record<string | number, unknown>)[node.key] = v);
  if (typeof node.value === 'string') {
    const text = node.value;
    const kept = prefixWithin(text, budget);
    set(kept);
    return { path: node.path, returned: codePointLength(kept), total: codePointLength(text) };
  }
  const items = node.value;
  const kept = longest(items.length - 1, (n) => elementSentBytes(items.slice(0, n)) <= budget);
  set(items.slice(0, kept));
  return { path: node.path, returned: kept, total: items.length };
}

/** The largest n in [0, max] for which fits(n) holds (fits is monotone, fits(0) assumed). */
function longest(max: number, fits: (n: number) => boolean): number {
  let low = 0;
  let high = Math.max(0, max);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

