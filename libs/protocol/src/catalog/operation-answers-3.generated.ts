// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.
import type { From, Checkpoint } from './operation-answer-parts.generated';

/** What a success of palimpsest_relocate_range carries. */
export type RelocateRangeAnswer = {
  status: "ok";
  target_file_id: string;
  from: {
    version: number;
    start: number;
    end: number;
  };
  version: number;
  start: number;
  end: number;
  relocation: "unchanged" | "moved" | "rewritten" | "deleted";
  touched_by: Array<{
    attempt_id: string;
    version: number;
  }>;
};

/** What a success of palimpsest_undo_attempt carries. */
export type UndoAttemptAnswer = {
  status: "accepted";
  undone_attempt_id: string;
  attempt_id: string;
  target_file_id: string;
  version: number;
  current_hash: string;
};

/** What a success of palimpsest_undo_edit carries. */
export type UndoEditAnswer = {
  status: "accepted";
  undone_attempt_id: string;
  attempt_id: string;
  target_file_id: string;
  version: number;
  current_hash: string;
  path?: string;
};

/** What a success of palimpsest_list_sessions carries. */
export type ListSessionsAnswer = {
  status: "ok";
  sessions: Array<{
    correlation_id: string;
    edits: number;
    command_runs: number;
    first_at: string;
    last_at: string;
    first_position: number;
    last_position: number;
  }>;
  next_before_position: number | null;
};

/** What a success of palimpsest_session_activity carries. */
export type SessionActivityAnswer = {
  status: "ok";
  correlation_id: string;
  entries: Array<{
    position: number;
    kind: "edit" | "command";
    tool: string | null;
    what: string;
    path: string | null;
    target_file_id: string | null;
    attempt_id: string | null;
    run_id: string | null;
    status: "accepted" | "rejected" | "exited" | "refused" | "killed" | "running" | "awaiting_approval" | "requested";
    version: number | null;
    exit_code: number | null;
    signal: string | null;
    reason: string | null;
    duration_ms: number | null;
    recorded_at: string;
    ended_at: string | null;
  }>;
  next_after_position: number | null;
};

/** What a success of palimpsest_diff_versions carries. */
export type DiffVersionsAnswer = {
  status: "ok";
  target_file_id: string;
  from: From;
  to: From;
  hunks: Array<{
    header: string;
    old_start_line: number;
    old_lines: number;
    new_start_line: number;
    new_lines: number;
    old_start: number;
    old_end: number;
    new_start: number;
    new_end: number;
    lines: Array<string>;
  }>;
  total_hunks: number;
  next_hunk: number | null;
  truncated: boolean;
  attempts: Array<{
    attempt_id: string;
    status: string;
    before_version: number;
    after_version: number | null;
    source: string;
    intent: string | null;
    log_sequence: number;
    created_at: string;
  }>;
  attempts_next: number | null;
};

/** What a success of palimpsest_file_history carries. */
export type FileHistoryAnswer = {
  status: "ok";
  path: string;
  target_file_id: string;
  versions: Array<{
    version: number;
    attempt_id: string | null;
    source: "created" | "agent" | "external_disk" | "undo";
    attempt_source: string | null;
    intent: string | null;
    written_at: string;
    log_sequence: number;
    size: number | null;
    after_hash: string;
  }>;
  next_before_version: number | null;
};

/** What a success of palimpsest_workspace_as_of carries. */
export type WorkspaceAsOfAnswer = {
  status: "ok";
  as_of: Record<string, unknown>;
  files: Array<{
    path: string;
    target_file_id: string;
    version: number;
    after_hash: string;
    written_at: string;
    log_sequence: number;
  }>;
  next_cursor: string | null;
};

/** What a success of palimpsest_prove_event carries. */
export type ProveEventAnswer = {
  status: "ok";
  global_position: number;
  leaf_index: number;
  tree_size: number;
  leaf_hash: string;
  audit_path: Array<string>;
  checkpoint: Checkpoint;
};

/** What a success of palimpsest_prove_consistency carries. */
export type ProveConsistencyAnswer = {
  status: "ok";
  first: Checkpoint;
  second: Checkpoint;
  proof_hashes: Array<string>;
};
