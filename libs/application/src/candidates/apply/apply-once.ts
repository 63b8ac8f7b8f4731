import type { ApplyCandidate } from '@palimpsest/core/candidate/candidate.commands';
import { decide } from '@palimpsest/core/candidate/candidate.decider';
import { applyFingerprint } from '@palimpsest/core/candidate/input-fingerprint';
import { writes, type CandidateState } from '@palimpsest/core/candidate/candidate.state';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../../app-context';
import { lockAndLoad } from '../shared/candidate-store';
import { commitCandidateEvents } from '@palimpsest/projections/candidates/candidate-commit';
import { eventAt, findRequest, lockRequestId } from '@palimpsest/projections/candidates/candidate.queries';
import { errorResult, type CandidateAnswer } from '../shared/envelope';
import { appliedAnswer } from './receipt';
import { transactionCommitting } from '../../shared/commit-events';
import { lockWrittenTargets, observeForApply, writeTargets } from './target-writes';

export interface ApplyInput {
  candidate: string;
  expected_candidate_version: number;
  request_id: string;
  require_checks?: string[];
}

export type ApplyStep = { kind: 'answer'; answer: CandidateAnswer } | { kind: 'awaiting'; approval_id: string };

/**
 * One apply attempt, one transaction: request lock → request_id lookup → candidate row lock →
 * written target rows locked in ascending id order → decide → write every target and the
 * candidate's events, or nothing. Under an approval policy it may only record the request.
 */
export async function applyOnce(ctx: AppContext, input: ApplyInput, policy: OwnerPolicy): Promise<ApplyStep> {
  const id = input.candidate.toLowerCase();
  const now = ctx.clock.now();
  const requireChecks = [...new Set([...(input.require_checks ?? []), ...policy.require_checks])];
  const fingerprint = applyFingerprint({ candidate: id, expected_candidate_version: input.expected_candidate_version, require_checks: input.require_checks });
  return transactionCommitting(ctx, async (tx, commit): Promise<ApplyStep> => {
    await lockRequestId(tx, input.request_id);
    const request = await findRequest(tx, input.request_id);
    const loaded = request ? { state: { exists: false } as CandidateState, streamVersion: 0 } : await lockAndLoad(tx, id);
    const state = loaded.state;
    const locked = state.exists ? await lockWrittenTargets(tx, state.targets.filter(writes).map((t) => t.target_id), ctx) : new Map();
    const cmd: ApplyCandidate = {
      type: 'ApplyCandidate',
      now,
      candidate_id: id,
      expected_candidate_version: input.expected_candidate_version,
      request_id: input.request_id,
      input_fingerprint: fingerprint,
      require_checks: requireChecks,
      approval: { required: policy.approve, policy: policy.name, approval_id: ctx.ids.next() },
      receipt_id: ctx.ids.next(),
      attempt_ids: Object.fromEntries([...locked.keys()].map((t) => [t, ctx.ids.next()])),
      lookups: { request, targets: state.exists ? await observeForApply(tx, state, locked) : {} },
    };
    const d = decide(cmd, state);
    if (d.kind === 'replayed') return { kind: 'answer', answer: appliedAnswer(await eventAt(tx, d.request.log_sequence), true) };
    if (d.kind === 'accepted' && d.events[0].type === 'CandidateApplied' && state.exists) {
      await writeTargets(commit, state, d.events[0].data, locked);
    }
    await commitCandidateEvents(tx, id, loaded, d.events, now, { command: 'ApplyCandidate', request_id: input.request_id });
    if (d.kind === 'refused') return { kind: 'answer', answer: errorResult(d.refusal) };
    if (d.kind === 'awaiting_approval') return { kind: 'awaiting', approval_id: d.approval_id };
    return { kind: 'answer', answer: appliedAnswer(d.events[0], false) };
  });
}
