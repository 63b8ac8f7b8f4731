import type { NextAction } from '@palimpsest/core/errors/error-model';
import { computeNearMisses } from '@palimpsest/core/diagnostics/near-misses';
import { closestCorrection, correctedNearMiss } from '@palimpsest/core/diagnostics/near-miss-correction';
import { retryableOf } from '@palimpsest/core/diagnostics/next-actions';
import { positionOf } from '@palimpsest/core/diagnostics/text-position';
import { occurrencesOf, uniqueContext, type Occurrence } from '@palimpsest/core/diagnostics/unique-context';
import { codePointToUnit } from '@palimpsest/core/text/code-points';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { FileToolRefusal } from '../shared/file-tool-refusal';
import type { RecordedRejection } from '../shared/guarded-write';
import { editLands } from './edit-lands';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * edit_file's refusal of an oldString that matches zero or several times, lean: the code, one line of
 * detail, the match lines, the nearest candidates and one ordered list of next actions, at most
 * EDIT_REFUSAL_BYTES of JSON text. Ambiguous: one ready edit_file call per occurrence (nearest to
 * near_line first, else in file order) whose oldString and newString carry the shortest context that
 * makes that occurrence unique. Absent: the call with the closest text, when one is closest. Every
 * offered call is decided on the current text first: it applies once and makes exactly the intended
 * change. A read_file at the lines named closes the list when the calls do not cover every case.
 * `detail: true` adds the recorded diagnostic and the contexts the submission tools answer.
 */

export const EDIT_REFUSAL_BYTES = 1500;
/** Ready calls offered at most (fewer when they do not fit the budget). */
const MAX_OFFERED_CALLS = 4;
/** Match lines listed at most: the ones nearest near_line (or the first), in file order. */
const MAX_LISTED_LINES = 20;
const MAX_NEAR_MISSES = 3;
const NEAR_MISS_TEXT = 80;

export interface EditRefusalInput {
  path: string;
  /** The canonical text the edit was decided on, and that row. */
  state: TargetRow;
  match: string;
  replace: string;
  rejection: RecordedRejection;
  nearLine: number | null;
  detail: boolean;
  now: string;
}

const bytes = (a: unknown) => Buffer.byteLength(JSON.stringify(a), 'utf8');
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function readAction(path: string, line: number, lines: number, reason: string): NextAction {
  const offset = Math.max(1, line - 3);
  return { operation: OP.read_file, reason, params: { path, offset, limit: Math.min(200, lines + 6) } };
}

/** The nearest first: by distance to near_line, else file order. */
function ranked(found: Occurrence[], nearLine: number | null): Occurrence[] {
  if (nearLine === null) return found;
  return [...found].sort((a, b) => Math.abs(a.line - nearLine) - Math.abs(b.line - nearLine) || a.start - b.start);
}

function listedLines(order: Occurrence[]): number[] {
  return order.slice(0, MAX_LISTED_LINES).map((o) => o.line).sort((a, b) => a - b);
}

export function editFileRefusal(i: EditRefusalInput): FileToolRefusal {
  const r = i.rejection;
  const base: FileToolRefusal = {
    status: 'rejected',
    failure_reason: r.failure_reason,
    failure_detail: r.failure_detail,
    path: i.path,
    target_file_id: r.target_file_id,
    attempt_id: r.attempt_id,
    retryable: retryableOf(r.failure_reason, undefined),
  };
  const lean =
    r.failure_reason === 'match_ambiguous' ? ambiguous(i, base, (n) => `oldString occurs ${n} times in ${i.path}; it must occur once.`) : r.failure_reason === 'match_absent' ? absent(i, base) : { ...base, next_actions: [readAction(i.path, 1, 40, 'Read the file, then send the edit again')] };
  if (!i.detail) return lean;
  const full = r.detailed();
  return { ...lean, diagnostic: full.diagnostic, current_context: full.current_context };
}

interface Offer {
  occurrence: Occurrence;
  before: string;
  after: string;
  call: NextAction;
}

/**
 * The calls for each occurrence of `i.match` (the oldString, or the closest text of an absent one that
 * occurs several times), and the sentence that opens the detail.
 */
function ambiguous(i: EditRefusalInput, base: FileToolRefusal, leadOf: (count: number) => string): FileToolRefusal {
  const text = i.state.content;
  const found = occurrencesOf(text, i.match);
  const lead = leadOf(found.length);
  const order = ranked(found, i.nearLine);
  const starts = found.map((o) => o.start);
  const head = { ...base, match_count: found.length, match_lines: listedLines(order) };
  const offers: Offer[] = [];
  for (const o of order.slice(0, 2 * MAX_OFFERED_CALLS)) {
    if (offers.length === MAX_OFFERED_CALLS) break;
    const c = uniqueContext(text, i.match, o.start, starts);
    if (!c) continue;
    const params = { path: i.path, oldString: c.before + i.match + c.after, newString: c.before + i.replace + c.after };
    const intended = text.slice(0, o.start) + i.replace + text.slice(o.start + i.match.length);
    if (!editLands(i.state, params.oldString, params.newString, intended, i.now)) continue;
    offers.push({ occurrence: o, ...c, call: { operation: OP.edit_file, reason: `The occurrence on line ${o.line}`, params } });
  }
  for (let n = offers.length; n > 0; n--) {
    const answer = answerOf(head, offers.slice(0, n), order, i, [], lead);
    if (bytes(answer) <= EDIT_REFUSAL_BYTES) return answer;
  }
  // Not even one call fits (a long newString): each occurrence's context alone, for the caller to wrap both strings in.
  let n = offers.length;
  while (n > 0 && bytes(answerOf(head, [], order, i, offers.slice(0, n), lead)) > EDIT_REFUSAL_BYTES) n--;
  return budgeted(answerOf(head, [], order, i, offers.slice(0, n), lead));
}

/** The answer with these calls (or contexts), the sentence that goes with them, and the read when they do not cover every occurrence. */
function answerOf(head: FileToolRefusal, calls: Offer[], order: Occurrence[], i: EditRefusalInput, contexts: Offer[], once: string): FileToolRefusal {
  const count = order.length;
  const actions = calls.map((o) => o.call);
  const rest = order.find((o) => !calls.some((c) => c.occurrence === o));
  if (rest) actions.push(readAction(i.path, rest.line, i.match.split('\n').length, `The occurrence on line ${rest.line} and its surroundings`));
  const where = i.nearLine === null ? 'first in the file' : `nearest line ${i.nearLine}`;
  const detail = calls.length === count
    ? `${once} Each edit_file call below names one occurrence by its line: send the one you meant.`
    : calls.length
      ? `${once} The edit_file calls below name the ${plural(calls.length, 'occurrence')} ${where}: send the one you meant, or send the edit again with near_line set to the line you meant.`
      : contexts.length
        ? `${once} Wrap both oldString and newString in the before and after of the occurrence you meant (occurrences) and send again.`
        : `${once} Add the surrounding lines of the occurrence you meant (read below) to both strings.`;
  const listed = contexts.map((o) => ({ line: o.occurrence.line, before: o.before, after: o.after }));
  return { ...head, failure_detail: detail, ...(listed.length ? { occurrences: listed } : {}), next_actions: actions };
}

function absent(i: EditRefusalInput, base: FileToolRefusal): FileToolRefusal {
  const text = i.state.content;
  const near = computeNearMisses(text, i.match, { scanSource: 'failing_buffer' }).candidates;
  const fix = closestCorrection(text, i.match, near);
  const repeated = fix ? null : repeatedCorrection(text, i.match, near);
  if (repeated !== null) {
    const lead = (n: number) => `oldString does not occur in ${i.path}; its closest text, ${JSON.stringify([...repeated].slice(0, 60).join(''))}, occurs ${n} times.`;
    const { match_lines, ...choices } = ambiguous({ ...i, match: repeated }, base, lead);
    return budgeted({ ...choices, match_count: 0, near_miss_lines: match_lines });
  }
  const lines = i.match.split('\n').length;
  const listed = near.slice(0, MAX_NEAR_MISSES).map((n) => ({ line: positionOf(text, n.start).line, distance: n.distance, text: [...n.text].slice(0, NEAR_MISS_TEXT).join('') }));
  const actions: NextAction[] = [];
  const call = fix && correctedCall(i, fix);
  if (call) actions.push(call);
  const readLine = listed[0]?.line ?? lineOfAnyPart(text, i.match);
  actions.push(readAction(i.path, readLine, lines, 'Read the lines the text should be on and copy oldString exactly'));
  const distance = near.find((n) => n.start === fix?.start)?.distance ?? 0;
  const detail = call
    ? `oldString does not occur in ${i.path}. The closest text differs by ${plural(distance, 'edit')}: the edit_file call below uses it.`
    : listed.length
      ? `oldString does not occur in ${i.path}; near_misses holds the closest texts. Copy the one you meant exactly.`
      : `oldString does not occur in ${i.path}, nor anything close. Read the file and copy the text exactly.`;
  const answer: FileToolRefusal = { ...base, failure_detail: detail, match_count: 0, ...(listed.length ? { near_misses: listed } : {}), next_actions: actions };
  if (bytes(answer) > EDIT_REFUSAL_BYTES && call) return budgeted({ ...answer, failure_detail: `oldString does not occur in ${i.path}; near_misses holds the closest texts. Copy the one you meant exactly.`, next_actions: actions.slice(1) });
  return budgeted(answer);
}

/** The closest near misses, when they tie and all stand for the same text (a repeated line mistyped): that text. */
function repeatedCorrection(text: string, match: string, near: readonly { start: number; end: number; distance: number }[]): string | null {
  if (near.length < 2) return null;
  const best = Math.min(...near.map((n) => n.distance));
  const texts = new Set(near.filter((n) => n.distance === best).map((n) => correctedNearMiss(text, match, n.start, n.end)));
  const [only] = [...texts];
  return texts.size === 1 && typeof only === 'string' && occurrencesOf(text, only).length > 1 ? only : null;
}

/**
 * The edit with the closest text in place of oldString; when that text occurs more than once, widened by
 * the shortest context that makes the near miss's occurrence unique. Null unless it lands as meant.
 */
function correctedCall(i: EditRefusalInput, fix: { text: string; start: number }): NextAction | null {
  const text = i.state.content;
  const at = codePointToUnit(text, fix.start);
  const found = occurrencesOf(text, fix.text);
  const c = found.length > 1 ? uniqueContext(text, fix.text, at, found.map((o) => o.start)) : { before: '', after: '' };
  if (!c) return null;
  const params = { path: i.path, oldString: c.before + fix.text + c.after, newString: c.before + i.replace + c.after };
  const intended = text.slice(0, at) + i.replace + text.slice(at + fix.text.length);
  if (!editLands(i.state, params.oldString, params.newString, intended, i.now)) return null;
  return { operation: OP.edit_file, reason: `The closest text, on line ${positionOf(text, fix.start).line}`, params };
}

/** The line of the first line of `match` (at least 3 characters once trimmed) that the text holds, else 1. */
function lineOfAnyPart(text: string, match: string): number {
  for (const part of match.split('\n')) {
    if (part.trim().length < 3) continue;
    const at = text.indexOf(part);
    if (at !== -1) return text.slice(0, at).split('\n').length;
  }
  return 1;
}

/** Whatever is left over the budget (a very long path, long candidates) goes, least useful first. */
function budgeted(answer: FileToolRefusal): FileToolRefusal {
  let a = answer;
  const trims: ((x: FileToolRefusal) => FileToolRefusal)[] = [
    (x) => ({ ...x, near_misses: x.near_misses?.slice(0, 1) }),
    (x) => ({ ...x, match_lines: (x.match_lines as number[] | undefined)?.slice(0, 5), near_miss_lines: (x.near_miss_lines as number[] | undefined)?.slice(0, 5) }),
    (x) => ({ ...x, occurrences: undefined, near_misses: undefined }),
    (x) => ({ ...x, next_actions: (x.next_actions as NextAction[]).filter((n) => n.operation === OP.read_file).slice(0, 1) }),
  ];
  for (const trim of trims) {
    if (bytes(a) <= EDIT_REFUSAL_BYTES) break;
    a = JSON.parse(JSON.stringify(trim(a)));
  }
  return a;
}
