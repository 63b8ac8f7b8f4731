import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../../app-context';
import { runCommand } from '../../shared/target-pipeline/target-pipeline';
import { acceptedOf, decideUnderLocks, recordDecision, type ApplyInput, type ApplyStep, type LockedApply } from './apply-decision';
import { publicationPlan, publishApply, type PublicationPlan } from './apply-publication';
import type { FileToCreate } from './created-files';

export type { ApplyInput, ApplyStep } from './apply-decision';

/**
 * One apply attempt, a command of the pipeline (shared/target-pipeline) on the candidate and its
 * written targets. The decision is taken in one transaction: request lock → request_id lookup → candidate row lock → written target rows locked in ascending id order → decide. Then either that
 * transaction records it (a refusal, an approval request, or an apply that writes no workspace file:
 * every target and the candidate's events, or nothing), or — when a written target is bound to a
 * workspace file — it records nothing and the apply goes through the publication journal
 * (apply-publication.ts), which decides again under the same locks in its outcome transaction.
 */
export function applyOnce(ctx: AppContext, input: ApplyInput, policy: OwnerPolicy, creates: readonly FileToCreate[] = []): Promise<ApplyStep> {
  const answer = (step: ApplyStep) => ({ kind: 'answer' as const, answer: step });
  return runCommand<LockedApply, ApplyStep, PublicationPlan>(ctx, {
    load: ({ tx }) => decideUnderLocks(ctx, tx, input, policy),
    locked: async (at, { tx, commit }) => {
      const accepted = acceptedOf(at);
      const plan = accepted ? await publicationPlan(ctx, tx, accepted, at.locked, creates) : null;
      if (plan?.kind === 'refused') return answer({ kind: 'refused', refusal: plan.refusal });
      if (plan?.kind === 'publish') return { kind: 'effect', change: plan };
      return answer(await recordDecision(tx, commit, at, input));
    },
    effect: (plan) => publishApply(ctx, input, plan, (tx) => decideUnderLocks(ctx, tx, input, policy), creates),
  });
}
