import { proveConsistency as consistencyOf, proveEvent as inclusionOf, type StoredCheckpoint } from '@palimpsest/projections/audit/audit-proofs.queries';
import type { AppContext } from '../app-context';

/** palimpsest_prove_event and palimpsest_prove_consistency: proofs of the Merkle log against its signed checkpoints. */

function notCovered(detail: string) {
  return { status: 'not_found' as const, code: 'not_found', failure_detail: detail, next_actions: [] };
}

const checkpointAnswer = (c: StoredCheckpoint) => ({ origin: c.origin, size: c.size, root_hash: c.root, signed_note: c.note, global_position: c.global_position });

export async function proveEvent(ctx: AppContext, input: { global_position: number; checkpoint_size?: number | null }) {
  const proof = await inclusionOf(ctx.db, input.global_position, input.checkpoint_size ?? null);
  if (!proof) {
    return notCovered(
      `No signed checkpoint${input.checkpoint_size ? ` of size ${input.checkpoint_size}` : ''} covers an event at position ${input.global_position} (none there, or not yet in a checkpoint: the projector signs one every N events or T seconds).`,
    );
  }
  const { path, checkpoint, ...rest } = proof;
  return { status: 'ok' as const, ...rest, audit_path: path, checkpoint: checkpointAnswer(checkpoint) };
}

export async function proveConsistency(ctx: AppContext, input: { first_size?: number | null; second_size?: number | null }) {
  const proof = await consistencyOf(ctx.db, input.first_size ?? null, input.second_size ?? null);
  if (!proof) return notCovered(`No signed checkpoints of sizes ${input.first_size ?? 'before'} and ${input.second_size ?? 'latest'}, the first smaller than the second.`);
  return { status: 'ok' as const, first: checkpointAnswer(proof.first), second: checkpointAnswer(proof.second), proof_hashes: proof.proof };
}
