import { sha256Hex } from '../text/sha256';
import { applyProposal } from '../transaction/apply-proposal';
import type { ChunkedText } from '../text/chunked-text';
import { spanSteps } from '../transaction/span-window';
import { EffectComposer, sameEffects, type TextEffect } from '../transaction/text-effect';
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

/**
 * verifyAcceptance on a preimage held in chunks, at the cost of the delta when it can: a record of tx/2
 * spans only is re-run operation by operation on the window of text each reads (span-window.ts says why
 * that is exact), its effects composed as the engine composes them; the text is left as it was. Anything
 * else, or a window that does not reproduce the recorded effects, is re-run on the whole text, which
 * reports the divergence.
 */
export function verifyAcceptanceOn(text: ChunkedText, data: RecordedAcceptance & { effects: readonly TextEffect[] }): void {
  if (!windowsReproduce(text, data)) verifyAcceptance(text.toString(), data);
}

function windowsReproduce(text: ChunkedText, data: RecordedAcceptance & { effects: readonly TextEffect[] }): boolean {
  // A text of one chunk is its own window: the whole-text run costs the same.
  if (text.chunkCount <= 1) return false;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(data.content);
  } catch {
    return false;
  }
  const recorded = { protocol_version: String(data.protocol_version), runtime_version: String(data.runtime_version), record };
  const steps = spanSteps(recorded);
  if (!steps) return false;
  const edit = text.beginEdit();
  const composer = new EffectComposer();
  try {
    for (const step of steps) {
      if (step.start > text.length || step.end > text.length) return false;
      const from = Math.max(0, step.start - step.before);
      const to = Math.min(text.length, step.end + step.after);
      const result = applyProposal({ ...recorded, record: step.recordAt(from) }, text.slice(from, to));
      if (!result.ok || result.effects.length !== 1) return false;
      const e = result.effects[0]!;
      const [start, end] = [from + e.start, from + e.end];
      composer.record(start, end, e.inserted, (a, b) => text.slice(a, b));
      edit.splice(start, end, e.inserted, text.slice(start, end));
    }
    return sameEffects(composer.effects, data.effects);
  } finally {
    edit.undo();
  }
}
