/**
 * The candidate stream's events (`candidate-<uuid>`). A candidate is a proposed change over one or
 * more targets: operations resolved against each target's base, kept apart until it is applied
 * through the target aggregate. Payloads carry everything the read model and replay need.
 */

export const CANDIDATE_EVENT_SCHEMA_VERSION = 1;

export type OperationKind = 'edit' | 'match' | 'span' | 'replace_all';

/** A target as the candidate found it when the target entered the candidate. */
export interface BaseTarget {
  target_id: string;
  version: number;
  hash: string;
  filename: string;
  content_type: string;
}

/**
 * One operation resolved to a code-point span of the candidate buffer it applied to (sequential:
 * each sees the buffer left by the ones before it). A target's resolved operations, in order, form
 * the tx/2 span record that is submitted to the target when the candidate is applied.
 */
export interface ResolvedOperation {
  candidate_version: number;
  index: number;
  start: number;
  end: number;
  expected_text: string;
  replace: string;
  rationale: string | null;
  risk: 'low' | 'medium' | 'high' | null;
}

export interface OperationOutcome {
  index: number;
  kind: OperationKind;
  target_id: string;
  handle: string | null;
  /** Code points of the buffer the operation saw: it replaced [start, end) … */
  start: number;
  end: number;
  /** … and its text now occupies [start, written_end). */
  written_end: number;
  outcome: 'changed' | 'no_change';
  /** True when the engine's line-ending canonicalization altered the text the operation supplied. */
  normalized: boolean;
}

export interface TargetChange {
  target_id: string;
  /** The operations this version added for the target. */
  operations: ResolvedOperation[];
  /** The candidate's text of the target after this version. */
  result_hash: string;
}

export interface CandidateProposedData {
  candidate_id: string;
  version: 1;
  request_id: string;
  input_fingerprint: string;
  intent: string | null;
  base: BaseTarget[];
  operations: OperationOutcome[];
  changes: TargetChange[];
  proposed_at: string;
  expires_at: string;
}

export interface CandidateExtendedData {
  candidate_id: string;
  version: number;
  request_id: string;
  input_fingerprint: string;
  intent: string | null;
  /** Targets that joined the candidate with this version. */
  base_added: BaseTarget[];
  operations: OperationOutcome[];
  changes: TargetChange[];
  extended_at: string;
  expires_at: string;
}

export interface CheckTargetResult {
  target_id: string;
  ok: boolean;
  message: string | null;
  line: number | null;
  column: number | null;
}

export interface CommandOutput {
  exit_code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timed_out: boolean;
}

export interface CheckRecordedData {
  candidate_id: string;
  candidate_version: number;
  check: string;
  kind: 'builtin' | 'command';
  /** passed / failed: the check ran; unavailable: it could not run (timeout, missing program). */
  status: 'passed' | 'failed' | 'unavailable';
  ok: boolean;
  reason: string | null;
  targets: CheckTargetResult[];
  output: CommandOutput | null;
  duration_ms: number;
  recorded_at: string;
}

export interface ApprovalRequestedData {
  approval_id: string;
  candidate_id: string;
  candidate_version: number;
  request_id: string;
  input_fingerprint: string;
  policy: string | null;
  prompt: string;
  requested_at: string;
}

export interface ApprovalDecidedData {
  approval_id: string;
  candidate_id: string;
  candidate_version: number;
  decided_by: string;
  note: string | null;
  decided_at: string;
}

/** Withdrawn by the side that asked: no grant can apply it any more; the candidate is discarded with it. */
export interface ApprovalWithdrawnData {
  approval_id: string;
  candidate_id: string;
  candidate_version: number;
  reason: 'cancelled';
  withdrawn_at: string;
}

export interface AppliedTarget {
  target_id: string;
  attempt_id: string;
  base_version: number;
  base_hash: string;
  result_version: number;
  result_hash: string;
}

/** A target the candidate read but does not write, found changed at apply time (allowed, reported). */
export interface BaseChange {
  target_id: string;
  base_version: number;
  base_hash: string;
  current_version: number;
  current_hash: string;
}

export interface CandidateAppliedData {
  candidate_id: string;
  candidate_version: number;
  receipt_id: string;
  request_id: string;
  input_fingerprint: string;
  approval_id: string | null;
  targets: AppliedTarget[];
  base_changes: BaseChange[];
  applied_at: string;
}

export interface CandidateDiscardedData {
  candidate_id: string;
  candidate_version: number;
  discarded_at: string;
}

export interface CandidateExpiredData {
  candidate_id: string;
  candidate_version: number;
  expires_at: string;
  expired_at: string;
}

export type CandidateEvent =
  | { type: 'CandidateProposed'; data: CandidateProposedData }
  | { type: 'CandidateExtended'; data: CandidateExtendedData }
  | { type: 'CheckRecorded'; data: CheckRecordedData }
  | { type: 'ApprovalRequested'; data: ApprovalRequestedData }
  | { type: 'ApprovalGranted'; data: ApprovalDecidedData }
  | { type: 'ApprovalDeclined'; data: ApprovalDecidedData }
  | { type: 'ApprovalWithdrawn'; data: ApprovalWithdrawnData }
  | { type: 'CandidateApplied'; data: CandidateAppliedData }
  | { type: 'CandidateDiscarded'; data: CandidateDiscardedData }
  | { type: 'CandidateExpired'; data: CandidateExpiredData };

export type CandidateEventType = CandidateEvent['type'];

export const CANDIDATE_EVENT_TYPES: readonly CandidateEventType[] = [
  'CandidateProposed',
  'CandidateExtended',
  'CheckRecorded',
  'ApprovalRequested',
  'ApprovalGranted',
  'ApprovalDeclined',
  'ApprovalWithdrawn',
  'CandidateApplied',
  'CandidateDiscarded',
  'CandidateExpired',
];

export const CANDIDATE_STREAM_PREFIX = 'candidate-';

export function candidateStreamId(candidateId: string): string {
  return `${CANDIDATE_STREAM_PREFIX}${candidateId}`;
}

export class UnknownCandidateEventError extends Error {
  constructor(readonly eventType: string, readonly schemaVersion: number) {
    super(`no upcaster for candidate event ${eventType} schema version ${schemaVersion}`);
  }
}

/** Version 1 is the only shape; a later one adds a lifting step here and never edits stored rows. */
export function upcastCandidateEvent(type: string, schemaVersion: number, data: unknown): CandidateEvent {
  if (!CANDIDATE_EVENT_TYPES.includes(type as CandidateEventType) || schemaVersion !== CANDIDATE_EVENT_SCHEMA_VERSION) {
    throw new UnknownCandidateEventError(type, schemaVersion);
  }
  return { type, data } as CandidateEvent;
}
