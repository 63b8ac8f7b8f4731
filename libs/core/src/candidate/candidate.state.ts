import type { BaseTarget, CandidateAppliedData, ResolvedOperation } from './candidate.events';

export type CandidateStatus = 'open' | 'applied' | 'discarded' | 'expired';

export interface CandidateTarget extends BaseTarget {
  /** The candidate's text of the target now (equal to `hash` when it only reads the target). */
  result_hash: string;
  /** Every resolved operation on the target, across versions, in application order. */
  operations: ResolvedOperation[];
}

export interface ApprovalState {
  approval_id: string;
  candidate_version: number;
  request_id: string;
  status: 'pending' | 'granted' | 'declined' | 'withdrawn';
}

export interface ExistingCandidate {
  exists: true;
  candidate_id: string;
  version: number;
  status: CandidateStatus;
  intent: string | null;
  created_at: string;
  expires_at: string;
  /** The request that produced the current version. */
  request_id: string;
  input_fingerprint: string;
  /** In the order they joined the candidate. */
  targets: CandidateTarget[];
  /** version → check name → whether its latest result on that version passed. */
  checks: Record<string, Record<string, boolean>>;
  approvals: ApprovalState[];
  applied: CandidateAppliedData | null;
}

export type CandidateState = { exists: false } | ExistingCandidate;

export const initialCandidateState: CandidateState = { exists: false };

/** A target the candidate writes: its text differs from the base. */
export const writes = (t: CandidateTarget): boolean => t.result_hash !== t.hash;

export function passedChecks(state: ExistingCandidate, version: number): string[] {
  const byName = state.checks[String(version)] ?? {};
  return Object.keys(byName).filter((name) => byName[name]).sort();
}

/** Open but past its expiry: any write command records the expiry first. */
export function isLapsed(state: ExistingCandidate, now: string): boolean {
  return state.status === 'open' && Date.parse(now) >= Date.parse(state.expires_at);
}
