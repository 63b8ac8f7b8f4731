import { sha256Hex } from '../../text/sha256';
import { evolve, ReplayDivergence } from '../target.decider';
import type { TargetEvent } from '../target.events';
import { initialTargetState, type TargetState } from '../target.state';

/** One step of the straightforward fold: the state's hash and the SHA-256 of its text, recomputed. */
export interface FoldTrace {
  hashes: { current_hash: string | null; text_sha256: string | null; version: number | null }[];
  state: TargetState;
  divergence: { index: number; attemptId: string; message: string } | null;
}

export function traceOf(state: TargetState): FoldTrace['hashes'][number] {
  return state.exists
    ? { current_hash: state.current_hash, text_sha256: sha256Hex(state.content), version: state.version }
    : { current_hash: null, text_sha256: null, version: null };
}

/** The reference: evolve() event by event on whole strings, as replay did before the chunked fold. */
export function referenceFold(events: readonly TargetEvent[]): FoldTrace {
  let state: TargetState = initialTargetState;
  const hashes: FoldTrace['hashes'] = [];
  for (let i = 0; i < events.length; i++) {
    try {
      state = evolve(state, events[i]!);
    } catch (err) {
      if (err instanceof ReplayDivergence) return { hashes, state, divergence: { index: i, attemptId: err.attemptId, message: err.message } };
      throw err;
    }
    hashes.push(traceOf(state));
  }
  return { hashes, state, divergence: null };
}
