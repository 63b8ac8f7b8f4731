import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../../app-context';
import { transactionCommitting } from '../../shared/commit-events';
import { errorResult } from '../shared/envelope';
import { acceptedOf, decideUnderLocks, recordDecision, type ApplyInput, type ApplyStep } from './apply-decision';
import { publicationPlan, publishApply } from './apply-publication';
import type { FileToCreate } from './created-files';

export type { ApplyInput, ApplyStep } from './apply-decision';

/**
 * One apply attempt. The decision is taken in one transaction: request lock → request_id lookup →
 * candidate row lock → written target rows locked in ascending id order → decide. Then either that
 * transaction records it (a refusal, an approval request, or an apply that writes no workspace file:
 * every target and the candidate's events, or nothing), or — when a written target is bound to a
 * workspace file — it records nothing and the apply goes through the publication journal
 * (apply-publication.ts), which decides again under the same locks in its outcome transaction.
 */
export async function applyOnce(ctx: AppContext, input: ApplyInput, policy: OwnerPolicy, creates: readonly FileToCreate[] = []): Promise<ApplyStep> {
  const first = await transactionCommitting(ctx, async (tx, commit) => {
    const at = await decideUnderLocks(ctx, tx, input, policy);
    const accepted = acceptedOf(at);
    const plan = accepted ? await publicationPlan(ctx, tx, accepted, at.locked, creates) : null;
    if (plan?.kind === 'refused') return { kind: 'step' as const, step: { kind: 'answer' as const, answer: errorResult(plan.refusal) } };
    if (plan?.kind === 'publish') return { kind: 'publish' as const, plan };
    return { kind: 'step' as const, step: await recordDecision(tx, commit, at, input) };
  });
  if (first.kind === 'step') return first.step;
  return publishApply(ctx, input, first.plan, (tx) => decideUnderLocks(ctx, tx, input, policy), creates);
}

