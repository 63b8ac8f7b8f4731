import { decide } from '@palimpsest/core/candidate/candidate.decider';
import { commitCandidateEvents } from '../shared/candidate-store';
import type { AppContext } from '../../app-context';
import { candidateUnitOfWork, handleCommand } from '../../shared/handle-command';
import { lockAndLoad } from '../shared/candidate-store';
import type { Refusal } from '@palimpsest/core/candidate/candidate-refusal';

/** The approval was withdrawn (and the candidate discarded with it), or why not. */
type Withdrawal = { kind: 'withdrawn' } | { kind: 'refused'; refusal: Refusal };

/**
 * Withdraw the approval a cancelled call was waiting on, under the candidate's lock: ApprovalWithdrawn
 * and CandidateDiscarded in one commit, so a grant that comes later finds nothing to apply. Refused
 * when the candidate is no longer open (an apply that committed first, a decline, an expiry).
 */
export async function withdrawApproval(ctx: AppContext, candidateId: string, approvalId: string): Promise<Withdrawal> {
  const now = ctx.clock.now();
  return handleCommand({
    unitOfWork: candidateUnitOfWork(ctx),
    load: (tx) => lockAndLoad(tx, candidateId),
    decide: (loaded) => decide({ type: 'WithdrawApproval', now, candidate_id: candidateId, approval_id: approvalId, reason: 'cancelled' }, loaded.state),
    commit: async (loaded, d, tx): Promise<Withdrawal> => {
      if (d.kind === 'replayed' || d.kind === 'awaiting_approval') throw new Error(`withdrawal decided ${d.kind}`);
      await commitCandidateEvents(tx, candidateId, loaded, d.events, now, { command: 'WithdrawApproval' });
      return d.kind === 'refused' ? { kind: 'refused', refusal: d.refusal } : { kind: 'withdrawn' };
    },
  });
}
