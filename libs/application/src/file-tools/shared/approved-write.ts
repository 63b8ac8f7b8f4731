import type { DropInCode } from '@palimpsest/core/policy/drop-in-answer';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { Refusal } from '@palimpsest/core/candidate/candidate-refusal';
import type { AppContext } from '../../app-context';
import { applyCandidate } from '../../candidates/apply/apply-candidate';
import type { FileToCreate } from '../../candidates/apply/created-files';
import { discardCandidate } from '../../candidates/discard/discard-candidate';
import { proposeCandidate } from '../../candidates/propose/propose-candidate';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { CallerWait } from '../../dispatch/operation-handler';
import type { FileToolRefusal } from './file-tool-refusal';
import { fileBytesOf } from '../../workspace-publication/file-bytes';
import type { FileTarget } from './file-target';
import { runTargetCommand } from '../../shared/target-pipeline/target-pipeline';
import { guardedPlan, type GuardedChange, type GuardedOutcome } from './guarded-write';
import type { Written } from './write-answers';

/**
 * A file-tool write under an owner policy with `approve` (seed 004: approvals on writes). The change is
 * decided first exactly as without approval, so a rejected change is a recorded rejection and nobody is
 * asked. An accepted one becomes a candidate on the file's target (the same operation, on the version
 * the tool read) and is applied with change_apply under the caller's policy: it records
 * ApprovalRequested, waits for an operator (progress reported to the caller meanwhile), and on a grant
 * publishes the file through the journal. A decline or a timeout is a final answer.
 */

/** Who is writing: the caller's owner policy and, for a transport that reports progress or cancels, its sink and signal. */
export interface WriteCaller extends CallerWait {
  policy?: OwnerPolicy | null;
}

type Bound = Extract<FileTarget, { kind: 'bound' }>;

export const needsApproval = (caller: WriteCaller | undefined): caller is WriteCaller & { policy: OwnerPolicy } => caller?.policy?.approve === true;

export function approvedWrite(ctx: AppContext, t: Bound, change: GuardedChange, operation: Record<string, unknown>, caller: WriteCaller & { policy: OwnerPolicy }): Promise<GuardedOutcome> {
  // The pipeline's approval step: the accepted change waits for an operator's grant, whose apply publishes and commits it.
  return runTargetCommand(ctx, guardedPlan(ctx, t, change, async (first): Promise<GuardedOutcome> => {
    const file = fileBytesOf(first.after.content, first.on.source_line_endings, t.bound_style);
    const request = { targetId: t.row.target_id, version: first.on.version, path: t.path, intent: `${change.tool} ${t.path}` };
    const applied = await proposeAndApply(ctx, request, operation, caller);
    if (applied.kind === 'answer') return applied;
    return {
      kind: 'written',
      before: first.on,
      after: { version: applied.version, current_hash: applied.current_hash, content: first.after.content },
      written: { ...applied.written, bytes_written: file.bytes.length, content_eol: file.content_eol },
    };
  }));
}

/** What the tool asks an operator to let it change: one target at the version the tool saw. */
export interface ApprovalRequest {
  targetId: string;
  version: number;
  path: string;
  intent: string;
}

export type Approved =
  | { kind: 'applied'; version: number; current_hash: string; written: Omit<Written, 'bytes_written' | 'content_eol'> }
  | { kind: 'answer'; answer: FileToolRefusal };

/**
 * The operation as a candidate on the target, applied under the caller's policy: ApprovalRequested, the
 * wait, and on a grant the publication through the journal (creating the file named in `creates`).
 */
export async function proposeAndApply(ctx: AppContext, r: ApprovalRequest, operation: Record<string, unknown>, caller: WriteCaller & { policy: OwnerPolicy }, creates: readonly FileToCreate[] = []): Promise<Approved> {
  const proposed = await proposeCandidate(ctx, {
    request_id: ctx.ids.next(),
    base: [{ target_file_id: r.targetId, version: r.version }],
    operations: [{ ...operation, target_file_id: r.targetId }],
    intent: r.intent,
  });
  if (proposed.kind === 'refused') return { kind: 'answer', answer: refusalAnswer(proposed.refusal, r) };
  const candidate = proposed.candidate_id;
  const applied = await applyCandidate(ctx, { candidate, expected_candidate_version: 1, request_id: ctx.ids.next() }, caller.policy, caller, creates);
  if (applied.kind === 'refused') {
    // The tool's answer is final: its candidate is not left open, so no late grant applies it and its approval leaves the pending list.
    if (isFinal(applied.refusal) && !isWithdrawn(applied.refusal)) await discardCandidate(ctx, candidate, null);
    return { kind: 'answer', answer: refusalAnswer(applied.refusal, r) };
  }
  const { applied: data, journal } = applied.record;
  const written = data.targets.find((t) => t.target_id === r.targetId);
  const installed = journal?.files.find((f) => f.target_id === r.targetId);
  if (!written || !installed || !journal) throw new Error(`file tools: the approved apply of ${r.path} names no file of target ${r.targetId}`);
  return {
    kind: 'applied',
    version: written.result_version,
    current_hash: written.result_hash,
    written: { attempt_id: written.attempt_id, journal_id: journal.journal_id, disk_sha256: installed.staged_sha256, cleanup_error: null },
  };
}

const FINAL: Record<string, { code: string; answer: DropInCode; detail: (path: string) => string }> = {
  approval_declined: {
    code: 'approval_declined',
    answer: 'APPROVAL_DECLINED',
    detail: (path) => `An operator declined this write to ${path}; nothing was written. This is an answer, not an obstacle: say what was refused and stop.`,
  },
  approval_withdrawn: {
    code: 'CANCELLED',
    answer: 'CANCELLED',
    detail: (path) => `The call was cancelled while it waited for an operator; its approval was withdrawn and nothing was written to ${path}.`,
  },
  approval_timeout: {
    code: 'approval_timeout',
    answer: 'APPROVAL_TIMEOUT',
    detail: (path) => `No operator decided on this write to ${path} in time; nothing was written. This is an answer, not an obstacle: say what was refused and stop.`,
  },
};

const isFinal = (r: Refusal): boolean => r.reason in FINAL;
/** Withdrawn: the candidate was discarded with the approval, in the same decision. */
const isWithdrawn = (r: Refusal): boolean => r.reason === 'approval_withdrawn';

/** Why the candidate was not proposed or applied, as a file-tool answer: the approval answers are final; anything else is a rejection with the refusal's reason. */
function refusalAnswer(error: Refusal, t: ApprovalRequest): FileToolRefusal {
  const details = (error.details ?? {}) as Record<string, unknown>;
  const final = FINAL[error.reason];
  if (final) {
    return { status: 'invalid_argument', code: final.code, answer: final.answer, failure_detail: final.detail(t.path), path: t.path, target_file_id: t.targetId, approval_id: typeof details.approval_id === 'string' ? details.approval_id : null };
  }
  return {
    status: 'rejected',
    target_file_id: t.targetId,
    failure_reason: error.reason,
    failure_detail: error.message,
    retryable: error.retryable,
    diagnostic: { code: error.reason, ...details },
    next_actions: [{ operation: OP.read_file, reason: 'Read the file as it is now, then decide whether to send the change again', params: { path: t.path } }],
  };
}
