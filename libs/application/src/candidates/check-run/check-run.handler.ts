import { decide } from '@palimpsest/core/candidate/candidate.decider';
import type { CheckOutcome } from '@palimpsest/core/candidate/candidate.commands';
import type { ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../../app-context';
import { candidateUnitOfWork, handleCommand } from '../../shared/handle-command';
import { readRefusal, asExisting } from '../shared/candidate-read';
import { loadCandidate, lockAndLoad } from '../shared/candidate-store';
import { commitCandidateEvents } from '../shared/candidate-store';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { errorResult, type EnvelopeAnswer } from '../shared/envelope';
import { candidateTexts } from '../shared/target-texts';
import { checkView, planChecks, runChecks, type PlannedCheck } from './check-plan';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export interface CheckRunInput {
  candidate: string;
  checks: string[];
}

/**
 * Run checks on the candidate's current version outside any transaction (a command check may take
 * a while and must hold no lock), then record the results on that version in one short transaction.
 */
export async function checkRun(ctx: AppContext, input: CheckRunInput, policy: OwnerPolicy): Promise<Result<OP.palimpsest_check_run>> {
  const id = input.candidate.toLowerCase();
  const plan = planChecks(input.checks, ctx.candidates.policy, policy);
  if (!plan.ok) return errorResult(plan.refusal);
  const { state } = await loadCandidate(ctx.db, id);
  const refused = readRefusal(state, id, ctx.clock.now(), 'check');
  if (refused) return errorResult(refused);
  const candidate = asExisting(state);
  const outcome = await runAndRecord(ctx, candidate, plan.checks);
  if (!outcome.ok) return outcome.answer;
  return {
    status: 'ok',
    ok: outcome.results.every((r) => r.ok),
    candidate: id,
    candidate_version: candidate.version,
    checks: outcome.results.map((r) => checkView(r)),
  };
}

export async function runAndRecord(
  ctx: AppContext,
  candidate: ExistingCandidate,
  checks: PlannedCheck[],
): Promise<{ ok: true; results: CheckOutcome[] } | { ok: false; answer: EnvelopeAnswer }> {
  const texts = await candidateTexts(ctx.db, candidate, ctx.contents);
  const results = await runChecks(checks, texts, ctx.candidates.commandPath);
  const now = ctx.clock.now();
  const decision = await handleCommand({
    unitOfWork: candidateUnitOfWork(ctx),
    load: (tx) => lockAndLoad(tx, candidate.candidate_id),
    decide: (loaded) => decide({ type: 'RecordChecks', now, candidate_id: candidate.candidate_id, candidate_version: candidate.version, results }, loaded.state),
    commit: async (loaded, d, tx) => {
      if (d.kind !== 'replayed') await commitCandidateEvents(tx, candidate.candidate_id, loaded, d.events, now, { command: 'RecordChecks' });
      return d;
    },
  });
  if (decision.kind === 'refused') return { ok: false, answer: errorResult(decision.refusal) };
  return { ok: true, results };
}
