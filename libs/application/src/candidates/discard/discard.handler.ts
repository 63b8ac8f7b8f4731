import { decide } from '@palimpsest/core/candidate/candidate.decider';
import type { AppContext } from '../../app-context';
import { candidateUnitOfWork, handleCommand } from '../../shared/handle-command';
import { asExisting } from '../shared/candidate-read';
import { lockAndLoad } from '../shared/candidate-store';
import { commitCandidateEvents } from '../shared/candidate-store';
import { candidateView } from '../shared/candidate-view';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { errorResult } from '../shared/envelope';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export interface DiscardInput {
  candidate: string;
  expected_candidate_version?: number;
}

/** Close an open candidate. An applied change is never undone here. */
export async function discardChange(ctx: AppContext, input: DiscardInput): Promise<Result<OP.palimpsest_change_discard>> {
  const id = input.candidate.toLowerCase();
  const now = ctx.clock.now();
  return handleCommand({
    unitOfWork: candidateUnitOfWork(ctx),
    load: (tx) => lockAndLoad(tx, id),
    decide: (loaded) => decide({ type: 'DiscardCandidate', now, candidate_id: id, expected_candidate_version: input.expected_candidate_version ?? null }, loaded.state),
    commit: async (loaded, d, tx): Promise<Result<OP.palimpsest_change_discard>> => {
      if (d.kind === 'replayed' || d.kind === 'awaiting_approval') throw new Error(`discard decided ${d.kind}`);
      const after = await commitCandidateEvents(tx, id, loaded, d.events, now, { command: 'DiscardCandidate' });
      if (d.kind === 'refused') return errorResult(d.refusal);
      return { status: 'ok', candidate: candidateView(asExisting(after), now), released: true };
    },
  });
}
