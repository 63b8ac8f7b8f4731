import type { GuardProblem, StaleGuard } from './guards';
import type { TargetEvent } from './target.events';
import type { TargetState } from './target.state';
import type { ReplacementTooLarge } from '../transaction/replacement-admission';
import type { TextChange } from '../transaction/transaction.types';

/**
 * What the target decider refuses without an event, as a domain value: the application turns it
 * into an answer (the wire shape is not the domain's). A rejected proposal is not a refusal: it is a
 * decision, recorded as ProposalRejected.
 */
export type TargetRefusal =
  | { kind: 'target_not_found'; target_id: string }
  | { kind: 'target_exists'; target_id: string }
  /** Text PostgreSQL cannot hold (NUL, unpaired surrogates) in an argument of InitializeTarget. */
  | { kind: 'unstorable_text'; argument: string }
  /** A tx/3 replacement over the admission limit: refused before anything is recorded. */
  | { kind: 'replacement_too_large'; target_id: string; limit: ReplacementTooLarge }
  /** A checkpoint's guard that is malformed… */
  | { kind: 'guard_invalid'; target_id: string; problem: GuardProblem; current_version: number; current_hash: string }
  /** …or no longer holds. */
  | { kind: 'guard_stale'; target_id: string; stale: StaleGuard; current_version: number; current_hash: string };

/** For a match_absent rejection: the failing buffer and query the response-only near misses scan (never stored). */
export interface NearMissSource {
  buffer: string;
  query: string;
}

/** Facts about a decision that storage and presentation use; never recorded, never part of the domain state. */
export interface DecisionHints {
  /** Which ends of the text an acceptance left untouched (null when unknown): the chunked row rewrites only the rest. */
  textChange: TextChange | null;
  /** For a match_absent rejection: what the response-only near-miss scan reads. */
  nearMissSource: NearMissSource | null;
}

/** The events a command decided and the state they lead to. */
export interface Evaluation {
  events: TargetEvent[];
  state: TargetState;
  /** An identical keyed request was decided before: answer that attempt, append nothing. */
  recoveredAttemptId: string | null;
}

export type TargetDecision =
  | ({ kind: 'decided'; hints: DecisionHints } & Evaluation)
  | { kind: 'refused'; refusal: TargetRefusal };

export const NO_HINTS: DecisionHints = { textChange: null, nearMissSource: null };
