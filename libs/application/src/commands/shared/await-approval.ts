import { commandRunStreamId } from '@palimpsest/core/command-run/command-run.events';
import type { CommandDecision } from '@palimpsest/core/policy/command-decision';
import type { AppContext } from '../../app-context';
import { StreamWaiter } from '../../candidates/apply/approval-wait';
import type { CallerWait } from '../../dispatch/operation-handler';
import type { RunRecord } from './run-record';

export type ApprovalOutcome = { kind: 'granted' } | { kind: 'declined'; reason: string } | { kind: 'timeout'; approvalId: string; waitedMs: number };

const promptOf = (command: string, d: Extract<CommandDecision, { verdict: 'approve' }>): string => `Run \`${command}\` at the workspace root? ${d.reason}`;

/**
 * A run the policy put before a person: CommandApprovalRequested on the run's stream, then a wait —
 * woken by NOTIFY on that stream, polling as a fallback, bounded by the approval wait the candidates
 * use — for an operator's CommandApproved or CommandDeclined (`palimpsest approvals`). No decision in
 * time (or the caller cancelling) records APPROVAL_TIMEOUT; a decision racing it wins, and is read back.
 */
export async function awaitApproval(ctx: AppContext, record: RunRecord, command: string, decision: Extract<CommandDecision, { verdict: 'approve' }>, caller: CallerWait): Promise<ApprovalOutcome> {
  const approvalId = ctx.ids.next();
  const waiter = await StreamWaiter.start(ctx.db, commandRunStreamId(record.runId));
  const { approvalWaitMs, approvalPollMs } = ctx.candidates;
  const deadline = Date.now() + approvalWaitMs;
  try {
    await record.record({ type: 'RequestApproval', approval_id: approvalId, prompt: promptOf(command, decision) });
    caller.progress?.report({ elapsed_ms: 0, total_ms: approvalWaitMs, message: `waiting for an operator to decide approval ${approvalId} of command run ${record.runId}` });
    for (;;) {
      await record.reload();
      const decided = outcomeOf(record);
      if (decided) return decided;
      const left = deadline - Date.now();
      if (left <= 0 || caller.signal?.aborted) {
        const timedOut = await refuseAsTimeout(record, decision.rule, approvalWaitMs);
        if (timedOut) return { kind: 'timeout', approvalId, waitedMs: approvalWaitMs };
        continue; // an operator decided meanwhile: the next reload reads it
      }
      await waiter.wait(Math.min(approvalPollMs, left), caller.signal);
    }
  } finally {
    await waiter.stop();
  }
}

function outcomeOf(record: RunRecord): ApprovalOutcome | null {
  const run = record.current;
  if (!run.exists) throw new Error(`command run ${record.runId} is not on the record`);
  if (run.phase === 'approved') return { kind: 'granted' };
  if (run.phase === 'refused') return { kind: 'declined', reason: 'declined' };
  return null;
}

/** False when the append lost to an operator's decision (the stream moved on). */
async function refuseAsTimeout(record: RunRecord, rule: string, waitedMs: number): Promise<boolean> {
  try {
    await record.record({ type: 'RefuseCommand', code: 'APPROVAL_TIMEOUT', rule, reason: `no operator decided within ${waitedMs} ms` });
    return true;
  } catch {
    await record.reload();
    return false;
  }
}
