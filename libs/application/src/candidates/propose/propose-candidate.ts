import type { ProposeCandidate, TargetObservation } from '@palimpsest/core/candidate/candidate.commands';
import { decide } from '@palimpsest/core/candidate/candidate.decider';
import type { CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import type { Refusal } from '@palimpsest/core/candidate/candidate-refusal';
import { proposeFingerprint } from '@palimpsest/core/candidate/input-fingerprint';
import { eventAt, findRequest, lockRequestId } from '@palimpsest/projections/candidates/candidate.queries';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../../app-context';
import { candidateUnitOfWork, handleCommand } from '../../shared/handle-command';
import { expiresAt } from '../shared/candidate-config';
import { commitCandidateEvents, lockAndLoad, type LoadedCandidate } from '../shared/candidate-store';
import { baseContents, observeTarget } from '../shared/target-texts';
import { baseEntries, type ProposeInput } from './propose-input';
import { sessionMetadata } from '../../shared/session-metadata';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * A proposal on the record — recorded now, or `replayed`: an earlier call with the same request_id
 * recorded it — with its CandidateProposed or CandidateExtended; or why not.
 */
export type Proposal = { kind: 'proposed'; candidate_id: string; replayed: boolean; event: CandidateEvent | null } | { kind: 'refused'; refusal: Refusal };

/**
 * The domain step of palimpsest_change_propose (or extend), which the file tools take too when a policy
 * asks for approvals: request lock → request_id lookup → candidate row lock → target reads → decide →
 * append + project, in one transaction. The caller has admitted the arguments (candidate and
 * expected_candidate_version together); checks are the handler's, after this step.
 */
export async function proposeCandidate(ctx: AppContext, input: ProposeInput): Promise<Proposal> {
  const cmd = command(ctx, input);
  const d = await handleCommand({
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
      if (decision.kind !== 'replayed') await commitCandidateEvents(tx, cmd.candidate_id, loaded, decision.events, cmd.now, sessionMetadata({ command: 'ProposeCandidate' }, OP.palimpsest_change_propose, input.session_id));
      return decision;
    },
  });
  if (d.kind === 'refused') return { kind: 'refused', refusal: d.refusal };
  if (d.kind === 'awaiting_approval') throw new Error('propose never awaits approval');
  if (d.kind === 'replayed') return { kind: 'proposed', candidate_id: d.request.candidate_id, replayed: true, event: await eventAt(ctx.db, d.request.log_sequence) };
  return { kind: 'proposed', candidate_id: cmd.candidate_id, replayed: false, event: d.events[0] };
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
