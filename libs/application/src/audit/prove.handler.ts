import { proveConsistency as consistencyOf, proveEvent as inclusionOf } from '@palimpsest/projections/audit/audit-proofs.queries';
import type { AppContext } from '../app-context';

/** palimpsest_prove_event and palimpsest_prove_consistency: proofs of the Merkle log against its signed checkpoints. */

function notCovered(detail: string) {
  return { status: 'not_found' as const, code: 'not_found', failure_detail: detail, next_actions: [] };
}

export async function proveEvent(ctx: AppContext, input: { global_position: number; checkpoint_size?: number | null }) {
  const proof = await inclusionOf(ctx.db, input.global_position, input.checkpoint_size ?? null);
  if (!proof) {
    return notCovered(
      `No signed checkpoint${input.checkpoint_size ? ` of size ${input.checkpoint_size}` : ''} covers an event at position ${input.global_position} (none there, or not yet in a checkpoint: the projector signs one every N events or T seconds).`,
    );
  }
  return { status: 'ok' as const, ...proof };
}

export async function proveConsistency(ctx: AppContext, input: { first_size: number; second_size?: number | null }) {
  const proof = await consistencyOf(ctx.db, input.first_size, input.second_size ?? null);
  if (!proof) return notCovered(`No signed checkpoints of sizes ${input.first_size} and ${input.second_size ?? 'latest'}, the first no larger than the second.`);
  return { status: 'ok' as const, ...proof };
}
