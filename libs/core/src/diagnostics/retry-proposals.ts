import type { NextAction, CatalogOperation } from '../errors/error-model';
import { toCanonicalLf } from '../text/canonical-text';
import { codePointLength, CodePointIndex } from '../text/code-points';
import { changesOf, failedIndexOf, retryArgs, withChange, type Change, type ChangeField, type RejectedRequest, type RetryBasis } from './retry-request';
import { closestCorrection, type NearMissSpan } from './near-miss-correction';
import { occurrenceStarts, positionOf, quoted } from './text-position';

/**
 * Corrected requests a rejection can offer as they are: each is the rejected request with one
 * deterministic fix, and is offered only when the probe (the same admission and decider a
 * submission goes through, run on the current text) says it would be accepted.
 */
export interface NextActionProbe {
  accepts(operation: string, args: Record<string, unknown>): boolean;
  /** The text change `index` (0-based) of the request sees: the current text after the earlier changes, or null. */
  bufferBefore(index: number): string | null;
}

export interface RetryContext {
  request: RejectedRequest;
  basis: RetryBasis;
  failed_change_id: string | null;
  diagnostic: Record<string, any> | null;
  probe: NextActionProbe;
}

interface FailedChange {
  field: ChangeField;
  index: number;
  change: Change;
  buffer: string | null;
}

export function failedChangeOf(c: RetryContext): FailedChange | null {
  const index = failedIndexOf(c.request.args, c.failed_change_id);
  const changes = changesOf(c.request.args);
  if (index === null || !changes) return null;
  return { field: changes.field, index, change: changes.items[index]!, buffer: c.probe.bufferBefore(index) };
}

const where = (buffer: string | null, offset: number): string => {
  if (buffer === null) return `at offset ${offset}`;
  const at = positionOf(buffer, offset);
  return `at line ${at.line}, column ${at.column}`;
};

/** A call built from the rejected request, not yet known to be one its operation takes. */
interface UncheckedCall {
  operation: CatalogOperation;
  reason: string;
  params: Record<string, unknown>;
}

/** The probe ran the operation's admission and decider on the call: its params are the operation's. */
const isAccepted = (probe: NextActionProbe, call: UncheckedCall): call is UncheckedCall & NextAction => probe.accepts(call.operation, call.params);

function offered(c: RetryContext, args: Record<string, unknown>, reason: string): NextAction[] {
  const call = { operation: c.request.operation, reason, params: args };
  return isAccepted(c.probe, call) ? [call] : [];
}

/** The request with only its guards (and, for a resubmission, key and lineage) refreshed. */
export function refreshedRequest(c: RetryContext, reason: string): NextAction[] {
  return offered(c, retryArgs(c.request, c.basis), reason);
}

/** match_ambiguous / disambiguation_invalid: one complete request per listed occurrence, in order. */
export function occurrenceChoices(c: RetryContext): NextAction[] {
  const failed = failedChangeOf(c);
  const found = c.diagnostic?.exact_candidates;
  if (!failed || typeof failed.change.match !== 'string' || !Array.isArray(found?.candidates)) return [];
  const { anchor_before: _before, anchor_after: _after, ...change } = failed.change;
  const base = retryArgs(c.request, c.basis);
  const count = Number(found.occurrence_count ?? found.candidates.length);
  return found.candidates.flatMap((k: { occurrence_index: number; start: number; before: string; after: string }) => {
    const args = withChange(base, failed.field, failed.index, { ...change, occurrence_index: k.occurrence_index });
    const excerpt = quoted(`${k.before}⟦${failed.change.match as string}⟧${k.after}`, 60);
    const reason =
      `Occurrence ${k.occurrence_index} of ${count}, ${where(failed.buffer, k.start)} (${excerpt}): ` +
      `resend with ${failed.field}[${failed.index}].occurrence_index ${k.occurrence_index}.`;
    return offered(c, args, reason);
  });
}

/** match_absent with one closest near miss: the change with its match replaced by that exact text. */
export function nearMissCorrection(c: RetryContext): NextAction[] {
  const failed = failedChangeOf(c);
  const near: NearMissSpan[] = c.diagnostic?.near_misses?.candidates ?? [];
  if (!failed || failed.buffer === null || typeof failed.change.match !== 'string') return [];
  const fix = closestCorrection(failed.buffer, toCanonicalLf(failed.change.match), near);
  if (fix === null) return [];
  const args = withChange(retryArgs(c.request, c.basis), failed.field, failed.index, { ...failed.change, match: fix.text });
  const reason =
    `${failed.field}[${failed.index}].match is not in the text; the closest text is ` +
    `${quoted(fix.text, 60)} ${where(failed.buffer, fix.start)}: resend with it as the match.`;
  return offered(c, args, reason);
}

/** A span whose offsets are off while its expected text occurs exactly once: the span moved there. */
export function relocatedSpan(c: RetryContext): NextAction[] {
  const failed = failedChangeOf(c);
  if (!failed || failed.change.op !== 'span' || failed.buffer === null) return [];
  const expected = failed.change.expected_text;
  if (typeof expected !== 'string' || expected === '') return [];
  const text = toCanonicalLf(expected);
  const starts = occurrenceStarts(failed.buffer, text, 2);
  if (starts.length !== 1) return [];
  const start = starts[0]!;
  const end = start + codePointLength(text);
  const args = withChange(retryArgs(c.request, c.basis), failed.field, failed.index, { ...failed.change, start, end });
  const reason =
    `The expected text ${quoted(text)} occurs once, at [${start}, ${end}) ${where(failed.buffer, start)}: ` +
    `resend ${failed.field}[${failed.index}] with start ${start} and end ${end}.`;
  return offered(c, args, reason);
}

/** Lineage or request-key arguments the decider refused: the same request with them rebuilt. */
export function rebuiltContext(c: RetryContext, argument: string | undefined): NextAction[] {
  const args = { ...c.request.args };
  if (argument === 'source') delete args.source;
  if (argument === 'parent_attempt_id' || argument === 'attempt') {
    delete args.parent_attempt_id;
    delete args.attempt;
  }
  const rebuilt = retryArgs({ ...c.request, args }, c.basis);
  // A key that is not one cannot be derived from: the retry's key is derived from the rejected attempt alone.
  if (argument === 'client_request_id' && c.basis.attempt_id) rebuilt.client_request_id = `retry-${c.basis.attempt_id}`;
  return offered(c, rebuilt, `${argument ?? 'An argument'} was refused: resend with it rebuilt (see failure_detail).`);
}

/** Guards this long at most: enough to pin an insertion, short enough to read. */
const INSERTION_GUARD = 16;

/**
 * An insertion into an observed scope sent without its adjacent guards: the same insertion with
 * expected_before and expected_after copied from the text around it, within the scope.
 */
export function guardedInsertion(c: RetryContext): NextAction[] {
  const failed = failedChangeOf(c);
  const scope = c.diagnostic;
  if (!failed || failed.change.op !== 'span' || failed.buffer === null || typeof scope?.scope_start !== 'number' || typeof scope.scope_end !== 'number') return [];
  const { start, end } = failed.change;
  if (typeof start !== 'number' || start !== end || start <= scope.scope_start || start >= scope.scope_end) return [];
  const index = new CodePointIndex(failed.buffer);
  const expected_before = index.slice(Math.max(scope.scope_start, start - INSERTION_GUARD), start);
  const expected_after = index.slice(start, Math.min(scope.scope_end, start + INSERTION_GUARD));
  const args = withChange(retryArgs(c.request, c.basis), failed.field, failed.index, { ...failed.change, expected_before, expected_after });
  return offered(c, args, `Resend ${failed.field}[${failed.index}] with the text around the insertion as its guards (expected_before ${quoted(expected_before)}, expected_after ${quoted(expected_after)}).`);
}

/** An observed submission sent without both guards: the same request with both (the probe checks they are the observation's). */
export function bothGuards(c: RetryContext): NextAction[] {
  const args = { ...retryArgs(c.request, c.basis), expected_target_version: c.basis.current_version, expected_current_hash: c.basis.current_hash };
  return offered(c, args, `Resend with both guards: expected_target_version ${c.basis.current_version} and expected_current_hash of the current text.`);
}

/** A request refused for arguments that do not go together (diagnostic.arguments): the same request without them. */
export function withoutArguments(c: RetryContext, names: readonly string[]): NextAction[] {
  const args = { ...c.request.args };
  for (const name of names) delete args[name];
  return offered(c, retryArgs({ ...c.request, args }, c.basis), `Resend without ${names.join(', ')}: this form does not take them.`);
}

/** An observed batch naming one observation in two groups: one group per observation, its operations in order. */
export function mergedGroups(c: RetryContext): NextAction[] {
  const groups = c.request.args.groups;
  if (!Array.isArray(groups) || !groups.every((g) => g && typeof g === 'object' && Array.isArray(g.operations))) return [];
  const merged: { observation_id: unknown; operations: unknown[] }[] = [];
  for (const g of groups as { observation_id: unknown; operations: unknown[] }[]) {
    const same = merged.find((m) => String(m.observation_id).toLowerCase() === String(g.observation_id).toLowerCase());
    if (same) same.operations = [...same.operations, ...g.operations];
    else merged.push({ observation_id: g.observation_id, operations: [...g.operations] });
  }
  const args = { ...retryArgs(c.request, c.basis), groups: merged };
  return offered(c, args, 'Resend with one group per observation, the operations of its groups run in order.');
}
