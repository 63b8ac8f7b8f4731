import { findUnstorableText } from '../text/encoding';
import { sha256Hex } from '../text/sha256';
import type { ProposeCandidate, TargetObservation } from './candidate.commands';
import type { BaseTarget, CandidateEvent, OperationOutcome, TargetChange } from './candidate.events';
import { refusal } from './candidate-refusal';
import {
  accepted,
  refused,
  requestReuse,
  requireOpen,
  versionMismatch,
  type CandidateDecision,
} from './candidate-decision';
import type { CandidateState, ExistingCandidate } from './candidate.state';
import { planOperations, type TargetPlan } from './plan-operations';
import { replayOperations, reproduces } from './target-record';
import { OP } from '../errors/operation-names.generated';

export const MAX_OPERATIONS_PER_REQUEST = 50;
/** Resolved operations one target may accumulate over all versions of a candidate. */
export const MAX_OPERATIONS_PER_TARGET = 1000;

/** A recorded operation list that no longer reproduces its hash: a defect, never an answer. */
export class CandidateReplayDivergence extends Error {
  constructor(readonly candidateId: string, readonly targetId: string) {
    super(`candidate ${candidateId}: the recorded operations on target ${targetId} do not reproduce their hash`);
  }
}

interface Buffers {
  buffers: Map<string, string>;
  /** Base text of every target the batch may touch. */
  bases: Map<string, string>;
  joining: BaseTarget[];
}

type Step<T> = { ok: true; value: T } | { ok: false; decision: CandidateDecision };

/** Seed order: request_id → candidate state and version → encoding → base → operations → record. */
export function decidePropose(cmd: ProposeCandidate, state: CandidateState): CandidateDecision {
  const reused = requestReuse(cmd.lookups.request, 'change_propose', cmd.input_fingerprint);
  if (reused) return reused;
  let existing: ExistingCandidate | null = null;
  if (cmd.expected_candidate_version !== null) {
    const open = requireOpen(state, cmd.candidate_id, cmd.now, 'propose');
    if (!open.ok) return open.decision;
    const stale = versionMismatch(open.candidate, cmd.expected_candidate_version);
    if (stale) return refused(stale);
    existing = open.candidate;
  } else if (state.exists) {
    throw new Error(`candidate ${cmd.candidate_id} already exists`);
  }
  const shape = checkShape(cmd);
  if (shape) return refused(shape);
  const collected = collectBuffers(cmd, existing);
  if (!collected.ok) return collected.decision;
  const version = existing ? existing.version + 1 : 1;
  const plan = planOperations(version, cmd.operations, collected.value.buffers);
  if (!plan.ok) return refused(plan.refusal);
  const tooMany = checkTargetLimits(existing, plan.targets);
  if (tooMany) return refused(tooMany);
  const changes = targetChanges(cmd.candidate_id, existing, plan.targets, collected.value.bases);
  return accepted([proposalEvent(cmd, existing, version, collected.value.joining, plan.outcomes, changes)]);
}

function checkShape(cmd: ProposeCandidate) {
  const bad = findUnstorableText({ operations: cmd.operations, intent: cmd.intent });
  if (bad) {
    return refusal('invalid_arguments', 'invalid_text_encoding', `Text at ${bad.replace(/^\$\.?/, '')} is not valid UTF-8 (unpaired surrogate or NUL).`);
  }
  if (cmd.operations.length === 0) return refusal('invalid_arguments', 'schema', 'operations must hold 1 to 50 operations.');
  if (cmd.operations.length > MAX_OPERATIONS_PER_REQUEST) {
    return refusal('resource_limit', 'too_many_operations', `operations holds ${cmd.operations.length} operations; at most ${MAX_OPERATIONS_PER_REQUEST}.`);
  }
  const seen = new Set<string>();
  for (const entry of cmd.base) {
    if (seen.has(entry.target_id)) {
      return refusal('invalid_arguments', 'duplicate_base_target', `base lists target ${entry.target_id} twice.`, { details: { target_file_id: entry.target_id } });
    }
    seen.add(entry.target_id);
  }
  return null;
}

/** The buffer each base target starts from: the candidate's text for members, the current text for newcomers. */
function collectBuffers(cmd: ProposeCandidate, existing: ExistingCandidate | null): Step<Buffers> {
  const out: Buffers = { buffers: new Map(), bases: new Map(), joining: [] };
  const moved: Record<string, unknown>[] = [];
  for (const entry of cmd.base) {
    const member = existing?.targets.find((t) => t.target_id === entry.target_id);
    if (member) {
      if (member.version !== entry.version) {
        return fail(refusal('invalid_arguments', 'base_mismatch', `base gives version ${entry.version} for target ${entry.target_id}; the candidate's base is version ${member.version}.`, {
          details: { target_file_id: entry.target_id, base_version: member.version },
        }));
      }
      const base = cmd.lookups.base_contents[entry.target_id];
      const text = base === undefined ? null : replayOperations(base, member.operations);
      if (text === null || sha256Hex(text) !== member.result_hash) throw new CandidateReplayDivergence(cmd.candidate_id, entry.target_id);
      out.buffers.set(entry.target_id, text);
      out.bases.set(entry.target_id, base as string);
      continue;
    }
    const seen = cmd.lookups.targets[entry.target_id];
    if (!seen) {
      return fail(refusal('not_found', 'target_unknown', `No target with id ${entry.target_id}.`, { target: { target_file_id: entry.target_id } }));
    }
    if (seen.version !== entry.version) moved.push({ target_file_id: entry.target_id, base_version: entry.version, current_version: seen.version });
    out.buffers.set(entry.target_id, seen.content);
    out.bases.set(entry.target_id, seen.content);
    out.joining.push(baseOf(seen));
  }
  if (moved.length) return fail(staleBase(moved));
  return { ok: true, value: out };
}

const fail = (r: ReturnType<typeof refusal>): { ok: false; decision: CandidateDecision } => ({ ok: false, decision: refused(r) });

function staleBase(moved: Record<string, unknown>[]) {
  return refusal('stale_snapshot', 'base_not_head', `${moved.length} base target(s) are not at the version given in base.`, {
    details: { moved },
    next_actions: moved.map((m) => ({
      operation: OP.palimpsest_get_target,
      reason: 'Read the target at its current version and rebuild the operations',
      params: { target_file_id: String(m.target_file_id) },
    })),
  });
}

function baseOf(t: TargetObservation): BaseTarget {
  return { target_id: t.target_id, version: t.version, hash: t.hash, filename: t.filename, content_type: t.content_type };
}

function checkTargetLimits(existing: ExistingCandidate | null, targets: Map<string, TargetPlan>) {
  for (const [id, plan] of targets) {
    const before = existing?.targets.find((t) => t.target_id === id)?.operations.length ?? 0;
    if (before + plan.resolved.length > MAX_OPERATIONS_PER_TARGET) {
      return refusal('resource_limit', 'too_many_operations', `target ${id} would hold more than ${MAX_OPERATIONS_PER_TARGET} operations in this candidate.`, {
        details: { target_file_id: id, limit: MAX_OPERATIONS_PER_TARGET },
      });
    }
  }
  return null;
}

/** Each touched target's new operations, proven to reproduce the text from its base before they are recorded. */
function targetChanges(candidateId: string, existing: ExistingCandidate | null, targets: Map<string, TargetPlan>, bases: Map<string, string>): TargetChange[] {
  const changes: TargetChange[] = [];
  for (const [id, plan] of targets) {
    if (plan.resolved.length === 0) continue;
    const prior = existing?.targets.find((t) => t.target_id === id)?.operations ?? [];
    const resultHash = sha256Hex(plan.text);
    if (!reproduces(bases.get(id) as string, [...prior, ...plan.resolved], resultHash)) throw new CandidateReplayDivergence(candidateId, id);
    changes.push({ target_id: id, operations: plan.resolved, result_hash: resultHash });
  }
  return changes;
}

function proposalEvent(
  cmd: ProposeCandidate,
  existing: ExistingCandidate | null,
  version: number,
  joining: BaseTarget[],
  operations: OperationOutcome[],
  changes: TargetChange[],
): CandidateEvent {
  const common = { candidate_id: cmd.candidate_id, request_id: cmd.request_id, input_fingerprint: cmd.input_fingerprint, intent: cmd.intent, operations, changes, expires_at: cmd.expires_at };
  if (!existing) return { type: 'CandidateProposed', data: { ...common, version: 1, base: joining, proposed_at: cmd.now } };
  return { type: 'CandidateExtended', data: { ...common, version, base_added: joining, extended_at: cmd.now } };
}
