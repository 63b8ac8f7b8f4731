import { decide } from '@palimpsest/core/candidate/candidate.decider';
import type { Refusal } from '@palimpsest/core/candidate/candidate-refusal';
import type { ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';
import type { AppContext } from '../../app-context';
import { candidateUnitOfWork, handleCommand } from '../../shared/handle-command';
import { asExisting } from '../shared/candidate-read';
import { commitCandidateEvents, lockAndLoad } from '../shared/candidate-store';

/** A candidate closed (as it is after CandidateDiscarded, at `now`), or why not (what was recorded with the refusal, an expiry, stays). */
export type Discard = { kind: 'discarded'; candidate: ExistingCandidate; now: string } | { kind: 'refused'; refusal: Refusal };

/**
 * The domain step of palimpsest_change_discard, which the file tools take too to close the candidate of
 * a write whose answer is final: DiscardCandidate decided under the candidate's row lock and committed.
 */
export async function discardCandidate(ctx: AppContext, candidateId: string, expectedVersion: number | null): Promise<Discard> {
  const id = candidateId.toLowerCase();
  const now = ctx.clock.now();
  return handleCommand({
    unitOfWork: candidateUnitOfWork(ctx),
    load: (tx) => lockAndLoad(tx, id),
    decide: (loaded) => decide({ type: 'DiscardCandidate', now, candidate_id: id, expected_candidate_version: expectedVersion }, loaded.state),
    commit: async (loaded, d, tx): Promise<Discard> => {
      if (d.kind === 'replayed' || d.kind === 'awaiting_approval') throw new Error(`discard decided ${d.kind}`);
      const after = await commitCandidateEvents(tx, id, loaded, d.events, now, { command: 'DiscardCandidate' });
      if (d.kind === 'refused') return { kind: 'refused', refusal: d.refusal };
      return { kind: 'discarded', candidate: asExisting(after), now };
    },
  });
}
