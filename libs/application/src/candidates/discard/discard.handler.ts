import type { AppContext } from '../../app-context';
import { candidateView } from '../shared/candidate-view';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { errorResult } from '../shared/envelope';
import type { OP } from '@palimpsest/core/errors/operation-names.generated';
import { discardCandidate } from './discard-candidate';

export interface DiscardInput {
  candidate: string;
  expected_candidate_version?: number;
}

/** Close an open candidate (discard-candidate.ts). An applied change is never undone here. */
export async function discardChange(ctx: AppContext, input: DiscardInput): Promise<Result<OP.palimpsest_change_discard>> {
  const d = await discardCandidate(ctx, input.candidate, input.expected_candidate_version ?? null);
  if (d.kind === 'refused') return errorResult(d.refusal);
  return { status: 'ok', candidate: candidateView(d.candidate, d.now), released: true };
}
