import { sha256Hex } from '../text/sha256';
import { applyProposal } from '../transaction/apply-proposal';
import { sameEffects, type TextEffect } from '../transaction/text-effect';
import type { TxSuccess } from '../transaction/transaction.types';
import { AFTER_HASH_MISMATCH, ReplayDivergence } from './replay-divergence';

/** What of a recorded acceptance re-running its engine needs. */
export interface RecordedAcceptance {
  attempt_id: string;
  protocol_version: string | null;
  runtime_version: string | null;
  /** The stored record, canonical JSON text. */
  content: string;
  after_hash: string;
}

/** Run the recorded (protocol, runtime) profile on the record against the preimage; a failure is a divergence. */
export function rerunAcceptance(preimage: string, data: RecordedAcceptance): TxSuccess {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(data.content);
  } catch {
    throw new ReplayDivergence(data.attempt_id, 'stored record is not JSON');
  }
  const result = applyProposal({ protocol_version: String(data.protocol_version), runtime_version: String(data.runtime_version), record }, preimage);
  if (!result.ok) throw new ReplayDivergence(data.attempt_id, `${result.failure_reason}: ${result.failure_detail}`);
  return result;
}

/**
 * The replay verifier's check, the one place the engine runs on a stored acceptance: the recorded
 * profile, re-run on the preimage, must reproduce the recorded after_hash and the recorded effects.
 * (The fold that follows applies the effects and checks after_hash again on what they give.)
 */
export function verifyAcceptance(preimage: string, data: RecordedAcceptance & { effects: readonly TextEffect[] }): void {
  const result = rerunAcceptance(preimage, data);
  if (sameEffects(result.effects, data.effects)) return;
  if (sha256Hex(result.text) !== data.after_hash) throw new ReplayDivergence(data.attempt_id, AFTER_HASH_MISMATCH);
  throw new ReplayDivergence(data.attempt_id, 'the recorded effects differ from the effects its runtime produces');
}
