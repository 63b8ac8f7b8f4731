import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../../app-context';
import type { CallerWait } from '../../dispatch/operation-handler';
import { errorResult, type ApplyAnswer } from '../shared/envelope';
import { applyCandidate } from './apply-candidate';
import type { ApplyInput } from './apply-once';
import { appliedAnswer } from './receipt';

/** change_apply: the apply (apply-candidate.ts: the attempt, the approval wait), answered as its receipt or the envelope. */
export async function applyChange(ctx: AppContext, input: ApplyInput, policy: OwnerPolicy, caller: CallerWait = {}): Promise<ApplyAnswer> {
  const outcome = await applyCandidate(ctx, { ...input, session_id: caller.correlationId ?? null }, policy, caller);
  return outcome.kind === 'applied' ? appliedAnswer(outcome.record) : errorResult(outcome.refusal);
}
