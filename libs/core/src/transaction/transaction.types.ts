import type { TextEffect } from './text-effect';

/**
 * The transaction engine's contract: a submitted record, evaluated against a canonical buffer,
 * yields either the new text with its change facts, or one failure with its diagnostics.
 * Wire names (snake_case) are kept for everything that is recorded in events or returned.
 */

export const PROTOCOL = {
  tx1: 'patchdiff-tx/1',
  tx2: 'patchdiff-tx/2',
  tx3: 'patchdiff-tx/3',
} as const;
export type ProtocolVersion = (typeof PROTOCOL)[keyof typeof PROTOCOL];

/** Immutable runtime profiles: part of the replay contract, recorded with every attempt. */
export const RUNTIME = {
  typedMatch: 'patchdiff-mvp-0.2.2',
  spanOps: 'patchdiff-mvp-0.3.0',
  replacement: 'patchdiff-mvp-0.4.0',
  spanContext: 'patchdiff-mvp-0.5.0',
} as const;
export type RuntimeVersion = (typeof RUNTIME)[keyof typeof RUNTIME];

export type ValidationStage = 'PROTOCOL_VALIDATION' | 'PRECONDITION_GUARD' | 'transaction_applicability';

/** Every failure_reason a recorded rejection can carry (published in the ProposalRejected schema). */
export const FAILURE_REASONS = [
  'match_absent',
  'match_ambiguous',
  'disambiguation_invalid',
  'sequential_match_invalid',
  'span_out_of_bounds',
  'span_expected_text_mismatch',
  'target_hash_mismatch',
  'target_version_mismatch',
  'target_diverged',
  'context_invalid',
  'protocol_invalid',
  'target_encoding_invalid',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** Request-shape, encoding, lineage and request-key failures: a fresh read cannot fix them. */
const NOT_RETRYABLE: readonly FailureReason[] = ['context_invalid', 'protocol_invalid', 'target_encoding_invalid'];

/** Seed definition: a fresh read can fix it, resending the identical request cannot. */
export const RETRYABLE_REASONS: ReadonlySet<FailureReason> = new Set(
  FAILURE_REASONS.filter((reason) => !NOT_RETRYABLE.includes(reason)),
);

/** A version or hash guard that no longer holds: the target moved since the caller read it. */
export const GUARD_FAILURE_REASONS: ReadonlySet<string> = new Set<FailureReason>(['target_version_mismatch', 'target_hash_mismatch']);

export type ChangeOperation = 'match' | 'span' | 'replace_all';

/** One accepted change, in the coordinates of the sequential buffer it was applied to (code points). */
export interface ChangeFact {
  change_id: string;
  change_index: number; // 1-based
  span_start: number;
  span_end: number;
  matched_chars: number;
  replacement_chars: number;
  matched_sha256: string;
  replacement_sha256: string;
  /** Absent for tx/1 typed matches (seed output); "match" | "span" for tx/2; "replace_all" for tx/3. */
  operation?: ChangeOperation;
}

/** Ledger metadata carried from the record for each change (not part of the derived facts). */
export interface ChangeAnnotation {
  change_id: string;
  change_index: number;
  rationale: string | null;
  risk: 'low' | 'medium' | 'high' | null;
}

export interface WarningDetail {
  code: 'no_op_change' | 'no_op_transaction' | 'occurrence_index_basis_shift' | 'grapheme_boundary_split';
  detail: string;
  change_id?: string;
  change_index?: number;
  [extra: string]: unknown;
}

/** Where in the failing buffer the failure sits, when the runtime knows (for failure_context windows). */
export interface FailureLocation {
  offset: number; // code points in the failing buffer
}

export interface TxFailure {
  failure_reason: FailureReason;
  failure_detail: string;
  failed_change_id: string | null;
  validation_stage: ValidationStage;
  /** Reason-specific diagnostic fields (occurrence_count, exact_candidates, span_check, buffer_length, code, …). */
  diagnostic: Record<string, unknown>;
  /** Number of changes simulated before the failing one (0 = canonical target buffer). */
  prior_changes: number;
  /** The buffer the failing change saw (intermediate when prior_changes > 0). Never persisted whole. */
  failing_buffer: string;
  location: FailureLocation | null;
}

/** Where the new text may differ from the old: both ends outside these counts are identical (UTF-16 units). */
export interface TextChange {
  unchangedPrefix: number;
  unchangedSuffix: number;
}

export interface TxSuccess {
  ok: true;
  text: string;
  facts: ChangeFact[];
  annotations: ChangeAnnotation[];
  warnings: WarningDetail[];
  /** Optional so runtimes that cannot tell (whole replacement) simply omit it. */
  changed?: TextChange;
  /** What the transaction did, in the input buffer's code points (ascending, disjoint): text-effect.ts. */
  effects: TextEffect[];
}

export type TxResult = TxSuccess | ({ ok: false } & TxFailure);

/** A record that passed shape validation, ready to apply; `record` is exactly what is stored. */
export interface ParsedProposal {
  protocol_version: ProtocolVersion;
  runtime_version: RuntimeVersion;
  intent: string | null;
  /** The canonical stored record object (what pdcp_content serializes). */
  record: Record<string, unknown>;
  change_count: number;
}

/** A stored record and the (protocol, runtime) pair it is applied under, live and in replay. */
export interface RecordedProposal {
  protocol_version: string;
  runtime_version: string;
  record: Record<string, unknown>;
}
