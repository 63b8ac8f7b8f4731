import type { RejectionContext } from '../diagnostics/rejection-context';
import type { DropInCode } from '../policy/drop-in-answer';
import type { NextAction } from './error-model';

/** Where a workspace root is, as a binding records it and a process is configured with. */
export type RootIdentity = {
  dev: string | number;
  ino: string | number;
};

/** An argument admission found ill-typed: its dotted path (edits.0.match) and what is wrong with it. */
export type ArgumentError = {
  path: string;
  message: string;
};

/** Which argument a refusal is about, and what admission found wrong with the call. */
type ArgumentDetails = {
  argument?: string;
  /** The operation refused (admission, the read-only profile, a policy). */
  tool?: string;
  unknown_arguments?: string[];
  missing_arguments?: string[];
  errors?: ArgumentError[];
  /** An owner policy's refusal: the policy's name. */
  policy?: string | null;
  /** A refused option's own word for the refusal (preview's unsupported_format). */
  detail?: string;
  /** A drop-in file tool's code for the refusal (read_file, edit_file, …). */
  answer?: DropInCode;
};

/** The limits and ranges an argument overstepped. */
type RangeDetails = {
  range_length?: number;
  total_lines?: number;
  totalLines?: number;
  total_chars?: number;
  size?: number;
  limit?: number;
  budget_ms?: number;
  limit_exceeded?: string;
  actual?: number;
  allowed_formats?: readonly string[];
  selection_index?: number | null;
};

/** The target or workspace file a refusal names, and the state it was refused against. */
type TargetDetails = {
  target_file_id?: string | null;
  path?: string;
  /** The path component a path refusal stopped at. */
  component?: number;
  current_version?: number;
  current_hash?: string;
  observation_id?: string | null;
  bundle_id?: string | null;
  observed_version?: number;
  observed_hash?: string;
  bound_root?: RootIdentity;
  configured_root?: RootIdentity & { path?: string };
};

/** A recorded rejection: the attempt that recorded it and what it found. */
type AttemptDetails = {
  attempt_id?: string | null;
  /** The approval a declined or timed-out write waited for. */
  approval_id?: string | null;
  failed_change_id?: string | null;
  before_hash?: string;
  after_hash?: null;
  log_sequence?: number | null;
  current_context?: RejectionContext;
  deduplicated?: boolean;
  client_request_id?: string | null;
  correlation_id?: string;
};

/** A call relayed to an executor that did not answer in time: whether it ran there is not known yet. */
type RelayDetails = {
  outcome?: 'applied' | 'not_applied' | 'unknown';
};

/** A command tool's refusal: the policy rule that decided, and the run it was recorded on. */
type CommandDetails = {
  rule?: string;
  runId?: string;
};

/** edit_file's lean refusal of an oldString that occurs zero or several times. */
type MatchDetails = {
  match_count?: number;
  match_lines?: number[];
  near_miss_lines?: number[];
  near_misses?: Array<{ line: number; distance: number; text: string }>;
};

/**
 * Every detail a refusal may carry beside its status, code and failure_detail, each named and typed:
 * reading a field no refusal carries does not compile. Type aliases, not interfaces, so an answer stays
 * assignable to Record<string, unknown> where it is printed as JSON.
 */
export type RefusalDetails = ArgumentDetails & RangeDetails & TargetDetails & AttemptDetails & MatchDetails & CommandDetails & RelayDetails & {
  next_actions?: NextAction[];
  diagnostic?: Record<string, unknown> | null;
  /** A preview's refusal: advisory, nothing was recorded. */
  preview?: true;
  advisory?: true;
};
