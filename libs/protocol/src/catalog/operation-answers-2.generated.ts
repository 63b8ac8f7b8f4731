// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.
import type { Journal, Candidate, FilesItem, ChecksItem, Projection } from './operation-answer-parts.generated';

/** What a success of palimpsest_workspace_status carries. */
export type WorkspaceStatusAnswer = {
  status: "ok";
  root: {
    path: string;
    dev: string;
    ino: string;
  };
  files: Array<{
    path: string;
    target_file_id: string;
    version: number;
    disk_version: number;
    publish: "on_accept" | "on_save";
    state: "in_sync" | "drifted" | "missing" | "pending" | "unreachable";
    disk_sha256: string;
    observed_sha256: string | null;
    journal: Record<string, unknown> | null;
    code?: string;
  }>;
  total: number;
  truncated: boolean;
  next_cursor: string | null;
};

/** What a success of grep carries. */
export type GrepAnswer = {
  status: "ok";
  matches: Array<{
    path: string;
    line: number;
    text: string;
  }>;
  truncated: boolean;
  pending?: Array<{
    path: string;
    target_file_id: string;
    version: number;
    disk_version: number;
  }>;
};

/** What a success of list_files carries. */
export type ListFilesAnswer = {
  status: "ok";
  path: string;
  entries: Array<{
    path: string;
    type: "file" | "directory" | "symlink";
    size?: number;
  }>;
  truncated: boolean;
};

/** What a success of read_file carries. */
export type ReadFileAnswer = {
  status: "ok";
  path: string;
  content: string;
  truncated: boolean;
  totalLines: number;
  pending?: {
    path: string;
    target_file_id: string;
    version: number;
    disk_version: number;
  };
  as_of?: {
    target_file_id: string;
    version: number;
    after_hash: string;
    written_at: string;
    log_sequence: number;
    attempt_id?: string | null;
  };
};

/** What a success of edit_file carries. */
export type EditFileAnswer = {
  status: "ok";
  path: string;
  replacements: number;
  diff: string;
  target_file_id: string;
  attempt_id: string | null;
  version: number;
  current_hash: string;
  disk_sha256: string;
  content_eol: "lf" | "crlf" | "cr";
  bound_now: boolean;
  external_attempt_id: string | null;
  journal: Journal;
  cleanup_error?: string;
};

/** What a success of write_file carries. */
export type WriteFileAnswer = {
  status: "ok";
  path: string;
  bytesWritten: number;
  created: boolean;
  target_file_id: string;
  attempt_id: string | null;
  version: number;
  current_hash: string;
  disk_sha256: string;
  content_eol: "lf" | "crlf" | "cr";
  bound_now: boolean;
  external_attempt_id: string | null;
  journal: Journal;
  cleanup_error?: string;
};

/** What a success of run_command carries. */
export type RunCommandAnswer = {
  status: "ok";
  command: string;
  exitCode: unknown;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  signal?: unknown;
  runId?: string;
};

/** What a success of start_command carries. */
export type StartCommandAnswer = {
  status: "ok";
  processId: string;
  command: string;
  pid: unknown;
};

/** What a success of get_command_output carries. */
export type GetCommandOutputAnswer = {
  status: "ok";
  processId: string;
  chunk: string;
  nextCursor: number;
  skipped: boolean;
  running: boolean;
  exitCode: unknown;
  skippedBytes?: number;
  signal?: unknown;
};

/** What a success of send_command_input carries. */
export type SendCommandInputAnswer = {
  status: "ok";
  processId: string;
  bytesWritten: number;
};

/** What a success of kill_command carries. */
export type KillCommandAnswer = {
  status: "ok";
  processId: string;
  killed: boolean;
  exitCode: unknown;
  signal?: unknown;
};

/** What a success of palimpsest_change_propose carries. */
export type ChangeProposeAnswer = {
  status: "ok";
  replayed: boolean;
  candidate: Candidate;
  operations: Array<{
    index: number;
    kind: string;
    target_file_id: string;
    outcome: string;
  }>;
  files: Array<FilesItem>;
  checks: Array<ChecksItem>;
  required_checks: Array<string>;
};

/** What a success of palimpsest_edit_plan carries. */
export type EditPlanAnswer = {
  status: "ok";
  outcome: string;
  operations: Array<{
    index: number;
    kind: string;
    target_file_id: string;
    outcome: string;
  }>;
  files: Array<FilesItem>;
  required_checks: Array<string>;
  suggested_checks: Array<string>;
};

/** What a success of palimpsest_change_inspect carries. */
export type ChangeInspectAnswer = {
  status: "ok";
  candidate: Candidate;
  files: Array<FilesItem>;
  targets: Array<{
    target_file_id: string;
    filename: string;
    change: string;
    base_version: number;
    current_version: number | null;
  }>;
  checks?: Array<ChecksItem>;
};

/** What a success of palimpsest_check_run carries. */
export type CheckRunAnswer = {
  status: "ok";
  ok: boolean;
  candidate: string;
  candidate_version: number;
  checks: Array<ChecksItem>;
};

/** What a success of palimpsest_change_apply carries. */
export type ChangeApplyAnswer = {
  status: "ok";
  replayed: boolean;
  receipt: {
    receipt_id: string;
    request_id: string;
    input_fingerprint: string;
    outcome: "applied" | "not_applied" | "unknown";
    candidate: string;
    candidate_version: number;
    targets: Array<{
      target_file_id: string;
      attempt_id: string;
      base_version: number;
      result_version: number;
      before_sha256: string;
      after_sha256: string;
    }>;
    files: Array<{
      path: string;
      target_file_id: string;
      before_sha256: string | null;
      after_sha256: string;
      change: "modified" | "created";
    }>;
    journal: {
      id: string;
      state: "committed" | "rolled_back" | "pending_reconcile";
    } | null;
    approval_id: string | null;
    recorded_at: string;
  };
  base_changes?: Array<{
    target_file_id: string;
    base_version: number;
    current_version: number;
    base_sha256: string;
    current_sha256: string;
    disk?: {
      path: string;
      expected_sha256: string | null;
      observed_sha256: string | null;
    };
  }>;
};

/** What a success of palimpsest_change_discard carries. */
export type ChangeDiscardAnswer = {
  status: "ok";
  candidate: Candidate;
  released: boolean;
};

/** What a success of palimpsest_search_targets carries. */
export type SearchTargetsAnswer = {
  status: "ok";
  query: string;
  hits: Array<{
    target_file_id: string;
    filename: string;
    path: string | null;
    version: number;
    rank: number;
    snippet: string;
    text_truncated: boolean;
  }>;
  total: number;
  next_offset: number | null;
  projection: Projection;
};

/** What a success of palimpsest_get_target_activity carries. */
export type GetTargetActivityAnswer = {
  status: "ok";
  target_file_id: string | null;
  window: {
    since: string;
    until: string;
    granularity: "minute" | "hour" | "day";
  };
  attempts: number;
  accepted: number;
  rejected: number;
  retries: number;
  acceptance_rate: number | null;
  retries_per_acceptance: number | null;
  by_failure_reason: Array<{
    failure_reason: string;
    attempts: number;
  }>;
  by_source: Array<{
    source: string;
    attempts: number;
    accepted: number;
    rejected: number;
    retries: number;
  }>;
  series: Array<{
    bucket: string;
    attempts: number;
    accepted: number;
    rejected: number;
    retries: number;
  }>;
  projection: Projection;
};

/** What a success of palimpsest_changes_since carries. */
export type ChangesSinceAnswer = {
  status: "ok";
  target_file_id: string | null;
  current_version: number | null;
  changes: Array<{
    attempt_id: string;
    target_file_id: string;
    path: string | null;
    version: number;
    log_sequence: number;
    time: string;
    source: string;
    intent: string | null;
    effects: Array<{
      start: number;
      end: number;
      inserted: string;
      inserted_code_points: number;
      inserted_truncated: boolean;
    }>;
  }>;
  next_position: number | null;
  complete: boolean;
};
