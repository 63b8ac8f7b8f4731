import type { BaseEntry, ProposeCandidate, TargetObservation } from '@palimpsest/core/candidate/candidate.commands';
import { decide } from '@palimpsest/core/candidate/candidate.decider';
import type { CandidateDecision } from '@palimpsest/core/candidate/candidate-decision';
import type { CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import { refusal } from '@palimpsest/core/candidate/candidate-refusal';
import { proposeFingerprint } from '@palimpsest/core/candidate/input-fingerprint';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../../app-context';
import { candidateUnitOfWork, handleCommand } from '../../shared/handle-command';
import { checkView, planChecks, type PlannedCheck } from '../check-run/check-plan';
import { runAndRecord } from '../check-run/check-run.handler';
import { expiresAt } from '../shared/candidate-config';
import { asExisting } from '../shared/candidate-read';
import { loadCandidate, lockAndLoad, type LoadedCandidate } from '../shared/candidate-store';
import { commitCandidateEvents } from '../shared/candidate-store';
import { eventAt, findRequest, lockRequestId } from '@palimpsest/projections/candidates/candidate.queries';
import { candidateView, filesView, operationsView } from '../shared/candidate-view';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { checksOfVersion, type CheckView } from '../shared/checks-query';
import { errorResult } from '../shared/envelope';
import { baseContents, observeTarget } from '../shared/target-texts';
import { baseEntries, type ProposeInput } from './propose-input';
import { withRetryActions } from './propose-next-actions';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export { baseEntries, type ProposeInput } from './propose-input';

/**
 * Propose (or extend): request lock → request_id lookup → candidate row lock → target reads → decide
 * → append + project, in one transaction. Requested checks run afterwards, outside it.
 */
export async function proposeChange(ctx: AppContext, input: ProposeInput, policy: OwnerPolicy): Promise<Result<OP.palimpsest_change_propose>> {
  if ((input.candidate === undefined) !== (input.expected_candidate_version === undefined)) {
    return errorResult(refusal('invalid_arguments', 'schema', 'candidate and expected_candidate_version go together: give both to extend a candidate, neither to start one.'));
  }
  const plan = planChecks(input.checks ?? [], ctx.candidates.policy, policy);
  if (!plan.ok) return errorResult(plan.refusal);
  const cmd = command(ctx, input);
  const decided = await handleCommand({
    unitOfWork: candidateUnitOfWork(ctx),
    load: async (tx) => {
      await lockRequestId(tx, cmd.request_id); // a new candidate has no row to lock yet: its request_id serializes
      const request = await findRequest(tx, cmd.request_id);
      const loaded: LoadedCandidate = cmd.expected_candidate_version === null ? { state: { exists: false }, streamVersion: 0 } : await lockAndLoad(tx, cmd.candidate_id);
      return { request, loaded };
    },
    decide: async ({ request, loaded }, tx) => {
      const lookups = request ? { request, targets: {}, base_contents: {} } : await readLookups(ctx, tx, cmd, loaded);
      return decide({ ...cmd, lookups }, loaded.state);
    },
    commit: async ({ loaded }, decision, tx) => {
      if (decision.kind !== 'replayed') await commitCandidateEvents(tx, cmd.candidate_id, loaded, decision.events, cmd.now, { command: 'ProposeCandidate' });
      return decision;
    },
  });
  if (decided.kind === 'refused') return errorResult(await withRetryActions(ctx, input, decided.refusal, policy));
  return answer(ctx, decided, cmd.candidate_id, plan.checks, policy);
}

function command(ctx: AppContext, input: ProposeInput): ProposeCandidate {
  const now = ctx.clock.now();
  const base = baseEntries(input.base);
  const candidate = input.candidate?.toLowerCase() ?? null;
  const intent = input.intent ?? null;
  const expected = input.expected_candidate_version ?? null;
  return {
    type: 'ProposeCandidate',
    now,
    candidate_id: candidate ?? ctx.ids.next(),
    expected_candidate_version: candidate === null ? null : expected,
    request_id: input.request_id,
    input_fingerprint: proposeFingerprint({ candidate, expected_candidate_version: expected, base, operations: input.operations, intent, checks: input.checks }),
    intent,
    base,
    operations: input.operations,
    expires_at: expiresAt(now, ctx.candidates.ttlMs),
    lookups: { request: null, targets: {}, base_contents: {} },
  };
}

async function readLookups(ctx: AppContext, tx: Sql, cmd: ProposeCandidate, loaded: LoadedCandidate): Promise<ProposeCandidate['lookups']> {
  const members = loaded.state.exists ? loaded.state.targets.map((t) => t.target_id) : [];
  const targets: Record<string, TargetObservation | null> = {};
  for (const entry of cmd.base) {
    if (!members.includes(entry.target_id)) targets[entry.target_id] = await observeTarget(tx, entry.target_id, ctx.contents);
  }
  const ids = cmd.base.map((b) => b.target_id).filter((id) => members.includes(id));
  const base_contents = loaded.state.exists && ids.length ? await baseContents(tx, loaded.state, ids, ctx.contents) : {};
  return { request: null, targets, base_contents };
}

async function answer(ctx: AppContext, d: CandidateDecision, candidateId: string, checks: PlannedCheck[], policy: OwnerPolicy): Promise<Result<OP.palimpsest_change_propose>> {
  if (d.kind === 'refused') return errorResult(d.refusal);
  if (d.kind === 'awaiting_approval') throw new Error('propose never awaits approval');
  const replayed = d.kind === 'replayed';
  const event = replayed ? await eventAt(ctx.db, d.request.log_sequence) : d.events[0];
  const id = replayed ? d.request.candidate_id : candidateId;
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
