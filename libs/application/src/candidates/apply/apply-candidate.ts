import { candidateStreamId } from '@palimpsest/core/candidate/candidate.events';
import { refusal } from '@palimpsest/core/candidate/candidate-refusal';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../../app-context';
import type { CallerWait, ProgressSink } from '../../dispatch/operation-handler';
import { applyOnce, type ApplyInput, type ApplyStep } from './apply-once';
import { applyArgs } from './apply-decision';
import { StreamWaiter } from './approval-wait';
import { withdrawApproval } from './withdraw-approval';
import type { FileToCreate } from './created-files';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/** What an apply came to: the apply on the record, or why not (a decline, a timeout and a withdrawal among them). */
export type ApplyOutcome = Exclude<ApplyStep, { kind: 'awaiting' }>;

/**
 * The domain step of palimpsest_change_apply, which the file tools take too when a policy asks for
 * approvals. Without an approval policy: one transaction. With one (policy.approve): the first
 * attempt records ApprovalRequested and commits; the step then waits — woken by NOTIFY on the
 * candidate's stream, polling as a fallback, never holding a transaction — and tries again until the
 * decision arrives or APPROVAL_WAIT_MS runs out. The same request_id sent later picks up a decision.
 * A caller that cancels while it waits withdraws its approval (withdraw-approval.ts): nothing is written
 * later, whatever an operator decides.
 */
export async function applyCandidate(ctx: AppContext, input: ApplyInput, policy: OwnerPolicy, caller: CallerWait = {}, creates: readonly FileToCreate[] = []): Promise<ApplyOutcome> {
  const { progress, signal } = caller;
  const { approvalWaitMs, approvalPollMs } = ctx.candidates;
  const deadline = Date.now() + approvalWaitMs;
  let waiter: StreamWaiter | null = null;
  let reporting: ProgressReporter | null = null;
  try {
    for (;;) {
      const step = await applyOnce(ctx, input, policy, creates);
      if (step.kind !== 'awaiting') return step;
      if (signal?.aborted) return await cancelled(ctx, input, policy, step.approval_id, creates);
      if (!waiter) {
        waiter = await StreamWaiter.start(ctx.db, candidateStreamId(input.candidate.toLowerCase()));
        if (progress) reporting = new ProgressReporter(progress, approvalWaitMs, `waiting for an operator to decide approval ${step.approval_id} of candidate ${input.candidate}`);
        continue; // a decision committed before we listened is seen by this next attempt
      }
      const left = deadline - Date.now();
      if (left <= 0) return approvalTimeout(input, step.approval_id, approvalWaitMs);
      await waiter.wait(Math.min(approvalPollMs, left), signal);
    }
  } finally {
    reporting?.stop();
    await waiter?.stop();
  }
}

/** Reports at once, then every `everyMs` until stopped: the wait itself stays as it is. */
class ProgressReporter {
  private readonly started = Date.now();
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly sink: ProgressSink,
    private readonly totalMs: number,
    private readonly message: string,
  ) {
    this.report();
    this.timer = setInterval(() => this.report(), sink.everyMs);
  }

  private report(): void {
    const elapsed = Math.min(Date.now() - this.started, this.totalMs);
    this.sink.report({ elapsed_ms: elapsed, total_ms: this.totalMs, message: `${this.message} (${Math.round(elapsed / 1000)} s of at most ${Math.round(this.totalMs / 1000)} s)` });
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

function approvalTimeout(input: ApplyInput, approvalId: string, waitedMs: number): ApplyOutcome {
  return {
    kind: 'refused',
    refusal: refusal('permission_denied', 'approval_timeout', `No operator decided on applying candidate ${input.candidate} within ${waitedMs} ms. This is an answer, not an obstacle: resend the same request (same request_id) later to pick up the decision.`, {
      target: { candidate: input.candidate, request_id: input.request_id },
      details: { answer: 'APPROVAL_TIMEOUT', approval_id: approvalId, waited_ms: waitedMs },
      next_actions: [
        {
          operation: OP.palimpsest_change_apply,
          reason: 'Resend this exact request, with the same request_id, once an operator has decided',
          params: applyArgs(input),
        },
      ],
    }),
  };
}

/**
 * The caller cancelled before its write was made: the approval is withdrawn (recorded), and the same
 * request, asked again, answers that. When the candidate closed first (applied, declined, expired) the
 * withdrawal is refused and the recorded outcome is the answer.
 */
async function cancelled(ctx: AppContext, input: ApplyInput, policy: OwnerPolicy, approvalId: string, creates: readonly FileToCreate[]): Promise<ApplyOutcome> {
  await withdrawApproval(ctx, input.candidate.toLowerCase(), approvalId);
  const step = await applyOnce(ctx, input, policy, creates);
  if (step.kind !== 'awaiting') return step;
  throw new Error(`candidate ${input.candidate}: approval ${approvalId} is still awaited after its withdrawal`);
}
