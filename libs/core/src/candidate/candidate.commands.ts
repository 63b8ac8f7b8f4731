import type { CheckRecordedData } from './candidate.events';

/** Candidate commands. Ids, time and everything read from the database come in with the command. */

interface CommandMeta {
  now: string;
}

/** What the handler found for the request_id, if it was used before (candidate_requests read model). */
export interface RequestRecord {
  request_id: string;
  operation: 'change_propose' | 'change_apply';
  input_fingerprint: string;
  candidate_id: string;
  candidate_version: number;
  log_sequence: number;
}

/** A target as it is now (for targets joining the candidate). */
export interface TargetObservation {
  target_id: string;
  version: number;
  hash: string;
  filename: string;
  content_type: string;
  content: string;
}

export interface BaseEntry {
  target_id: string;
  version: number;
}

/** Start a candidate, or extend an open one (candidate_id of an existing stream + expected version). */
export interface ProposeCandidate extends CommandMeta {
  type: 'ProposeCandidate';
  candidate_id: string;
  /** Set when extending; null for a new candidate. */
  expected_candidate_version: number | null;
  request_id: string;
  input_fingerprint: string;
  intent: string | null;
  base: BaseEntry[];
  operations: Record<string, unknown>[];
  expires_at: string;
  lookups: {
    request: RequestRecord | null;
    /** Current observations of the base targets that are not yet part of the candidate (null: no such target). */
    targets: Record<string, TargetObservation | null>;
    /** The base text of each target already in the candidate (extensions only). */
    base_contents: Record<string, string>;
  };
}

/** A check's result as the runner reports it: the recorded event's data before it is bound to a version. */
export type CheckOutcome = Omit<CheckRecordedData, 'candidate_id' | 'candidate_version' | 'recorded_at'>;

export interface RecordChecks extends CommandMeta {
  type: 'RecordChecks';
  candidate_id: string;
  candidate_version: number;
  results: CheckOutcome[];
}

/** How a written target that moved since its base was moved (from the candidate read model). */
export type MovedBy = { kind: 'candidate'; candidate_id: string } | { kind: 'direct' };

/** A target's workspace file whose bytes are not what the target last imported or published: edited, or gone (observed null). */
export interface DiskChange {
  path: string;
  expected_sha256: string;
  observed_sha256: string | null;
}

export interface TargetNow {
  version: number;
  hash: string;
  /** Set when the version is past the base: who made the first change after it. */
  moved_by: MovedBy | null;
  /** Of a target the candidate only reads, bound to a workspace file: set when the file changed outside Palimpsest. */
  disk?: DiskChange | null;
}

export interface ApplyCandidate extends CommandMeta {
  type: 'ApplyCandidate';
  candidate_id: string;
  expected_candidate_version: number;
  request_id: string;
  input_fingerprint: string;
  require_checks: string[];
  approval: { required: boolean; policy: string | null; approval_id: string };
  receipt_id: string;
  /** One fresh attempt id per target the candidate writes. */
  attempt_ids: Record<string, string>;
  lookups: {
    request: RequestRecord | null;
    /** Every target of the candidate as it is now (written ones under their row locks). */
    targets: Record<string, TargetNow>;
  };
}

export interface DiscardCandidate extends CommandMeta {
  type: 'DiscardCandidate';
  candidate_id: string;
  expected_candidate_version: number | null;
}

export interface DecideApproval extends CommandMeta {
  type: 'DecideApproval';
  candidate_id: string;
  approval_id: string;
  decision: 'grant' | 'decline';
  decided_by: string;
  note: string | null;
}

/** The caller that asked for the approval went away (cancelled its call) before anything was written. */
export interface WithdrawApproval extends CommandMeta {
  type: 'WithdrawApproval';
  candidate_id: string;
  approval_id: string;
  reason: 'cancelled';
}

export type CandidateCommand = ProposeCandidate | RecordChecks | ApplyCandidate | DiscardCandidate | DecideApproval | WithdrawApproval;
