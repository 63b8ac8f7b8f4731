import type { CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import { refusal } from '@palimpsest/core/candidate/candidate-refusal';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../../app-context';
import { checkView, planChecks, type PlannedCheck } from '../check-run/check-plan';
import { runAndRecord } from '../check-run/check-run.handler';
import { asExisting } from '../shared/candidate-read';
import { loadCandidate } from '../shared/candidate-store';
import { candidateView, filesView, operationsView } from '../shared/candidate-view';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { checksOfVersion, type CheckView } from '../shared/checks-query';
import { errorResult } from '../shared/envelope';
import { proposeCandidate, type Proposal } from './propose-candidate';
import type { ProposeInput } from './propose-input';
import { withRetryActions } from './propose-next-actions';
import type { OP } from '@palimpsest/core/errors/operation-names.generated';

export { baseEntries, type ProposeInput } from './propose-input';

/**
 * palimpsest_change_propose (or extend): the arguments admitted, the proposal recorded
 * (propose-candidate.ts), then the requested checks run, outside its transaction, and it is answered.
 */
export async function proposeChange(ctx: AppContext, input: ProposeInput, policy: OwnerPolicy): Promise<Result<OP.palimpsest_change_propose>> {
  if ((input.candidate === undefined) !== (input.expected_candidate_version === undefined)) {
    return errorResult(refusal('invalid_arguments', 'schema', 'candidate and expected_candidate_version go together: give both to extend a candidate, neither to start one.'));
  }
  const plan = planChecks(input.checks ?? [], ctx.candidates.policy, policy);
  if (!plan.ok) return errorResult(plan.refusal);
  const proposed = await proposeCandidate(ctx, input);
  if (proposed.kind === 'refused') return errorResult(await withRetryActions(ctx, input, proposed.refusal, policy));
  return answer(ctx, proposed, plan.checks, policy);
}

async function answer(ctx: AppContext, p: Extract<Proposal, { kind: 'proposed' }>, checks: PlannedCheck[], policy: OwnerPolicy): Promise<Result<OP.palimpsest_change_propose>> {
  const { replayed, event, candidate_id: id } = p;
  const candidate = asExisting((await loadCandidate(ctx.db, id)).state);
  let ran: CheckView[] | null = null;
  if (!replayed && checks.length) {
    const outcome = await runAndRecord(ctx, candidate, checks);
    if (!outcome.ok) return outcome.answer;
    ran = outcome.results.map((r) => checkView(r));
  }
  return {
    status: 'ok',
    replayed,
    candidate: candidateView(candidate, ctx.clock.now()),
    operations: operationsView(outcomesOf(event)),
    files: filesView(candidate),
    checks: ran ?? (await checksOfVersion(ctx.db, id, proposalVersion(event) ?? candidate.version)),
    required_checks: policy.require_checks,
  };
}

function outcomesOf(event: CandidateEvent | null) {
  return event && (event.type === 'CandidateProposed' || event.type === 'CandidateExtended') ? event.data.operations : [];
}

function proposalVersion(event: CandidateEvent | null): number | null {
  return event && (event.type === 'CandidateProposed' || event.type === 'CandidateExtended') ? event.data.version : null;
}
