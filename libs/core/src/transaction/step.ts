import { codePointLength } from '../text/code-points';
import { sha256Hex } from '../text/sha256';
import type { SequentialBuffer } from './sequential-buffer';
import { PROTOCOL } from './transaction.types';
import type { ChangeFact, ChangeOperation, FailureReason, ProtocolVersion, TxFailure } from './transaction.types';

/** What one change knows about where it runs. */
export interface StepEnv {
  format: ProtocolVersion;
  changeId: string;
  changeIndex: number;
  observedVersion: number | null;
  observedHash: string | null;
}

/** One change resolved against the sequential buffer: the UTF-16 range to replace and its fact. */
export interface StepSuccess {
  ok: true;
  unitStart: number;
  unitEnd: number;
  replacement: string;
  fact: ChangeFact;
  noOp: boolean;
}

export type StepResult = StepSuccess | { ok: false; failure: TxFailure };

export function stepFailure(
  env: StepEnv,
  buf: SequentialBuffer,
  reason: FailureReason,
  detail: string,
  diagnostic: Record<string, unknown>,
  location: number | null,
): { ok: false; failure: TxFailure } {
  return {
    ok: false,
    failure: {
      failure_reason: reason,
      failure_detail: detail,
      failed_change_id: env.changeId,
      validation_stage: 'transaction_applicability',
      diagnostic: { format: env.format, ...diagnostic },
      prior_changes: buf.priorChanges,
      failing_buffer: buf.text,
      location: location === null ? null : { offset: location },
    },
  };
}

/** A successful step replacing code points [start, end) (UTF-16 [unitStart, unitEnd)) with `replacement`. */
export function stepSuccess(
  env: StepEnv,
  at: { start: number; end: number; unitStart: number; unitEnd: number },
  matched: string,
  replacement: string,
  operation: ChangeOperation,
): StepSuccess {
  const fact: ChangeFact = {
    change_id: env.changeId,
    change_index: env.changeIndex,
    span_start: at.start,
    span_end: at.end,
    matched_chars: at.end - at.start,
    replacement_chars: codePointLength(replacement),
    matched_sha256: sha256Hex(matched),
    replacement_sha256: sha256Hex(replacement),
  };
  // tx/1 facts keep their original shape, without an operation key.
  if (env.format !== PROTOCOL.tx1) fact.operation = operation;
  return { ok: true, unitStart: at.unitStart, unitEnd: at.unitEnd, replacement, fact, noOp: matched === replacement };
}

/** Sentence appended to selector failures that happen after earlier changes of the same transaction. */
export function sequentialBasisNote(priorChanges: number): string {
  if (priorChanges === 0) return '';
  const changes = priorChanges === 1 ? '1 simulated change' : `${priorChanges} simulated changes`;
  return ` Selectors count occurrences in the sequential buffer after ${changes} of this transaction.`;
}
