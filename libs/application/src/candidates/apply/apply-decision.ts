import type { ApplyCandidate, TargetNow } from '@palimpsest/core/candidate/candidate.commands';
import type { CandidateDecision } from '@palimpsest/core/candidate/candidate-decision';
import type { Refusal } from '@palimpsest/core/candidate/candidate-refusal';
import { decide } from '@palimpsest/core/candidate/candidate.decider';
import type { CandidateAppliedData } from '@palimpsest/core/candidate/candidate.events';
import { applyFingerprint } from '@palimpsest/core/candidate/input-fingerprint';
import { writes, type CandidateState, type ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { commitCandidateEvents } from '../shared/candidate-store';
import { sessionMetadata, withoutSession } from '../../shared/session-metadata';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { eventAt, findRequest, lockRequestId } from '@palimpsest/projections/candidates/candidate.queries';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { Sql } from '@palimpsest/store/db';
import type { StoreTx } from '@palimpsest/store/event-store';
import type { AppContext } from '../../app-context';
import type { CommitTargetEvents } from '../../shared/commit-events';
import { lockAndLoad, type LoadedCandidate } from '../shared/candidate-store';
import { appliedRecord, type AppliedRecord } from './receipt';
import { lockWrittenTargets, observeForApply, writeTargets } from './target-writes';

/**
 * An apply decided under its locks, in one transaction: request lock → request_id lookup → candidate
 * row lock → written target rows locked in ascending id order → decide; and the recording of that
 * decision in the same transaction.
 */

export interface ApplyInput {
  candidate: string;
  expected_candidate_version: number;
  request_id: string;
  require_checks?: string[];
  /** The caller's session (set by the handler from the transport, never from the arguments): recorded with the apply's events. */
  session_id?: string | null;
}

/** What one apply attempt did: the apply on the record, a refusal (recorded when the decision records one), or an approval awaited. */
export type ApplyStep = { kind: 'applied'; record: AppliedRecord } | { kind: 'refused'; refusal: Refusal } | { kind: 'awaiting'; approval_id: string };

/** The apply decided under its locks, in one transaction, before anything of it is recorded. */
export interface LockedApply {
  id: string;
  now: string;
  loaded: LoadedCandidate;
  locked: Map<string, TargetRow>;
  d: CandidateDecision;
  /** Every target as the decision saw it (a read input's file change is answered in base_changes). */
  observed: Record<string, TargetNow>;
}

/** An accepted apply: the CandidateApplied it records, on the candidate it was decided for. */
export interface AcceptedApply {
  candidate: ExistingCandidate;
  applied: CandidateAppliedData;
}

export async function decideUnderLocks(ctx: AppContext, tx: Sql, input: ApplyInput, policy: OwnerPolicy): Promise<LockedApply> {
  const id = input.candidate.toLowerCase();
  const now = ctx.clock.now();
  const requireChecks = [...new Set([...(input.require_checks ?? []), ...policy.require_checks])];
  const fingerprint = applyFingerprint({ candidate: id, expected_candidate_version: input.expected_candidate_version, require_checks: input.require_checks });
  await lockRequestId(tx, input.request_id);
  const request = await findRequest(tx, input.request_id);
  const loaded = request ? { state: { exists: false } as CandidateState, streamVersion: 0 } : await lockAndLoad(tx, id);
  const state = loaded.state;
  const locked = state.exists ? await lockWrittenTargets(tx, state.targets.filter(writes).map((t) => t.target_id), ctx) : new Map<string, TargetRow>();
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
    lookups: { request, targets: state.exists ? await observeForApply(ctx, tx, state, locked) : {} },
  };
  return { id, now, loaded, locked, d: decide(cmd, state), observed: cmd.lookups.targets };
}

export function acceptedOf(at: LockedApply): AcceptedApply | null {
  const event = at.d.kind === 'accepted' ? at.d.events[0] : undefined;
  if (event?.type !== 'CandidateApplied' || !at.loaded.state.exists) return null;
  return { candidate: at.loaded.state, applied: event.data };
}

/** The arguments as the caller sent them, for a next action that repeats them. */
export const applyArgs = (input: ApplyInput): Omit<ApplyInput, 'session_id'> => withoutSession(input);

/** An apply's events: the command, its own fields, and the caller's session when it has one. */
export const applyMetadata = (input: ApplyInput, fields: Record<string, unknown>): Record<string, unknown> =>
  sessionMetadata({ command: 'ApplyCandidate', ...fields }, OP.palimpsest_change_apply, input.session_id);

/** Record the decision in its transaction; an accepted apply writes every target with the candidate's events. */
export async function recordDecision(tx: StoreTx, commit: CommitTargetEvents, at: LockedApply, input: ApplyInput): Promise<ApplyStep> {
  const { d } = at;
  if (d.kind === 'replayed') return { kind: 'applied', record: await appliedRecord(tx, await eventAt(tx, d.request.log_sequence), true) };
  const accepted = acceptedOf(at);
  if (accepted) await writeTargets(commit, accepted.candidate, accepted.applied, at.locked, new Map(), input.session_id);
  await commitCandidateEvents(tx, at.id, at.loaded, d.events, at.now, applyMetadata(input, { request_id: input.request_id }));
  if (d.kind === 'refused') return { kind: 'refused', refusal: d.refusal };
  if (d.kind === 'awaiting_approval') return { kind: 'awaiting', approval_id: d.approval_id };
  return { kind: 'applied', record: await appliedRecord(tx, d.events[0], false, at.observed) };
}
