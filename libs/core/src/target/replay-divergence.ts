/** Replay found a recorded acceptance that does not reproduce: report, never repair. */
export class ReplayDivergence extends Error {
  constructor(readonly attemptId: string, readonly reason: string) {
    super(`attempt ${attemptId} does not replay: ${reason}`);
  }
}

/** The reason every fold gives when the text it reached does not hash to the recorded after_hash. */
export const AFTER_HASH_MISMATCH = 'reconstructed text does not match the recorded after_hash';
