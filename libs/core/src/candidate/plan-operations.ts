import type { NextAction } from '../errors/error-model';
import { sliceCodePoints } from '../text/code-points';
import { applyProposal } from '../transaction/apply-proposal';
import { parseProposal } from '../transaction/parse-proposal';
import { checkReplacementAdmission } from '../transaction/replacement-admission';
import type { TxFailure } from '../transaction/transaction.types';
import type { OperationOutcome, ResolvedOperation } from './candidate.events';
import { refusal, type Refusal } from './candidate-refusal';
import { HandleTable } from './handles';
import { handleReference, isOperationKind, singleChange, type SingleChange } from './operation-input';
import { OP } from '../errors/operation-names.generated';

/**
 * Apply a batch of operations, in order and all or nothing, to the candidate's buffers. Each
 * operation runs through the runtime of its kind against the buffer left by the operations before
 * it, and is resolved to the exact span it replaced, so the batch can be recorded as tx/2 span
 * operations that reproduce it byte for byte.
 */

export interface TargetPlan {
  text: string;
  resolved: ResolvedOperation[];
}

export type PlanResult =
  | { ok: true; outcomes: OperationOutcome[]; targets: Map<string, TargetPlan> }
  | { ok: false; refusal: Refusal };

const INTENT = 'candidate operation';

class PlanRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

const invalid = (index: number, reason: string, message: string, details?: Record<string, unknown>) =>
  new PlanRefused(refusal('invalid_arguments', reason, message, { operation_index: index, details }));

export function planOperations(version: number, operations: Record<string, unknown>[], buffers: Map<string, string>): PlanResult {
  const targets = new Map<string, TargetPlan>();
  for (const [id, text] of buffers) targets.set(id, { text, resolved: [] });
  const handles = new HandleTable();
  const outcomes: OperationOutcome[] = [];
  try {
    operations.forEach((op, index) => outcomes.push(planOne(version, op, index, targets, handles)));
  } catch (err) {
    if (err instanceof PlanRefused) return { ok: false, refusal: err.refusal };
    throw err;
  }
  return { ok: true, outcomes, targets };
}

function planOne(version: number, op: Record<string, unknown>, index: number, targets: Map<string, TargetPlan>, handles: HandleTable): OperationOutcome {
  const kind = op.kind;
  if (!isOperationKind(kind)) throw invalid(index, 'unknown_kind', `operations[${index}].kind must be edit, match, span or replace_all.`);
  const targetId = String(op.target_file_id ?? '').toLowerCase();
  const plan = targets.get(targetId);
  if (!plan) {
    throw invalid(index, 'target_not_in_base', `operations[${index}] names target ${targetId}, which is not listed in base.`, { target_file_id: targetId });
  }
  const name = op.handle === undefined || op.handle === null ? null : String(op.handle);
  if (name !== null && handles.has(name)) throw invalid(index, 'duplicate_handle', `handle "${name}" is already defined earlier in this batch.`);
  const { fields, addressed } = resolveRange(op, index, targetId, plan.text, handles);
  const change = singleChange(kind, fields, INTENT);
  const before = plan.text;
  const applied = runChange(change, before, index, targetId);
  const start = applied.start;
  const written = applied.written;
  const resolved: ResolvedOperation = {
    candidate_version: version,
    index,
    start,
    end: applied.end,
    expected_text: sliceCodePoints(before, start, applied.end),
    replace: sliceCodePoints(applied.text, start, start + written),
    rationale: typeof op.rationale === 'string' ? op.rationale : null,
    risk: op.risk === 'low' || op.risk === 'medium' || op.risk === 'high' ? op.risk : null,
  };
  plan.text = applied.text;
  plan.resolved.push(resolved);
  handles.record(targetId, start, applied.end, written, addressed);
  if (name !== null) handles.define(name, { target_id: targetId, start, end: start + written });
  return {
    index,
    kind,
    target_id: targetId,
    handle: name,
    start,
    end: applied.end,
    written_end: start + written,
    outcome: resolved.expected_text === resolved.replace ? 'no_change' : 'changed',
    normalized: change.requested !== resolved.replace,
  };
}

/** A span addressed by `range: {"handle": …}` becomes an ordinary span over the handle's current text. */
function resolveRange(op: Record<string, unknown>, index: number, targetId: string, text: string, handles: HandleTable) {
  if (op.range === undefined) return { fields: op, addressed: null };
  const name = handleReference(op.range);
  if (op.kind !== 'span' || name === null) {
    throw invalid(index, 'invalid_range', `operations[${index}].range must be {"handle": name} on a span operation.`);
  }
  if (op.start !== undefined || op.end !== undefined) {
    throw invalid(index, 'range_with_offsets', `operations[${index}] gives both range and start/end; give one.`);
  }
  const h = handles.get(name);
  if (!h) throw invalid(index, 'unknown_handle', `operations[${index}].range names handle "${name}", which no earlier operation defined.`);
  if (h.target_id !== targetId) {
    throw invalid(index, 'handle_target_mismatch', `handle "${name}" belongs to target ${h.target_id}, not ${targetId}.`);
  }
  if (h.spent) {
    throw invalid(index, 'handle_overwritten', `handle "${name}" was overwritten by a later operation and no longer names text.`);
  }
  const current = sliceCodePoints(text, h.start, h.end);
  const { range: _range, ...rest } = op;
  return { fields: { ...rest, start: h.start, end: h.end, expected_text: op.expected_text ?? current }, addressed: name };
}

function runChange(change: SingleChange, buffer: string, index: number, targetId: string) {
  if (change.input.replacement !== undefined) {
    const tooLarge = checkReplacementAdmission(String(change.input.replacement));
    if (tooLarge) {
      throw new PlanRefused(
        refusal('resource_limit', 'replacement_too_large', `operations[${index}] replacement exceeds ${tooLarge.limit_exceeded} (${tooLarge.actual} > ${tooLarge.limit}).`, {
          operation_index: index,
          details: { ...tooLarge },
        }),
      );
    }
  }
  const parsed = parseProposal(change.protocol, change.input);
  if (!parsed.ok) throw new PlanRefused(runtimeRefusal(index, targetId, parsed.failure));
  const { protocol_version, runtime_version, record } = parsed.proposal;
  const result = applyProposal({ protocol_version, runtime_version, record }, buffer);
  if (!result.ok) throw new PlanRefused(runtimeRefusal(index, targetId, result));
  const fact = result.facts[0];
  return { text: result.text, start: fact.span_start, end: fact.span_end, written: fact.replacement_chars };
}

/** A read that answers: the occurrences of the match text an ambiguous match lists, else the text itself. */
function rereadAction(targetId: string, diagnostic: Record<string, unknown>): NextAction {
  const listed = (diagnostic.exact_candidates as { candidates?: { match_preview: string; match_truncated: boolean }[] } | undefined)?.candidates?.[0];
  if (listed && !listed.match_truncated) {
    const params = { target_file_id: targetId, text: listed.match_preview };
    return { operation: OP.palimpsest_find_occurrences, reason: 'Find the text again in the current target and rebuild the operation', params };
  }
  return { operation: OP.palimpsest_read_target, reason: 'Read the current text and rebuild the operation', params: { target_file_id: targetId, start: 0, length: 4000 } };
}

/** Shape problems are invalid arguments; text that is not where the operation expects it is a stale read. */
export function runtimeRefusal(index: number, targetId: string, f: Omit<TxFailure, 'failing_buffer'> & { failing_buffer?: string }): Refusal {
  const details = { failure_reason: f.failure_reason, failure_detail: f.failure_detail, diagnostic: f.diagnostic };
  if (f.validation_stage === 'PROTOCOL_VALIDATION') {
    const code = typeof f.diagnostic.code === 'string' ? f.diagnostic.code : f.failure_reason;
    return refusal('invalid_arguments', code, `operations[${index}]: ${f.failure_detail}`, { operation_index: index, target: { target_file_id: targetId }, details });
  }
  return refusal('precondition_failed', f.failure_reason, `operations[${index}]: ${f.failure_detail}`, {
    operation_index: index,
    target: { target_file_id: targetId },
    details,
    next_actions: [rereadAction(targetId, f.diagnostic)],
  });
}

