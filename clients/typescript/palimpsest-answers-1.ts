// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.
import type { InitializeTargetAnswer, SourceLineEndings, Workspace, Validity, Evidence, ChangesItem, Rebased, WorkspaceSync, SubmitEditsAnswer } from './palimpsest-answer-parts';

/** What a success of palimpsest_handle_upload carries. */
export type HandleUploadAnswer = InitializeTargetAnswer;

/** What a success of palimpsest_get_target carries. */
export type GetTargetAnswer = {
  status: "ok";
  target_file_id: string;
  filename: string;
  target_type: string;
  version: number;
  current_hash: string;
  active_editing_cycle_id: string;
  source_line_endings: SourceLineEndings;
  workspace?: Workspace;
  log_sequence?: number;
  current_content: string;
};

/** What a success of palimpsest_export_target carries. */
export type ExportTargetAnswer = {
  status: "ok";
  target_file_id: string;
  version: number;
  current_hash: string;
  filename: string;
  format: "original_text" | "canonical_lf" | "crlf" | "original_eol";
  content: string;
  content_eol: string;
  content_sha256: string;
  source_line_endings: {
    style: "lf" | "crlf" | "cr" | "mixed" | "none";
    lf: number;
    crlf: number;
    cr: number;
    normalized: boolean;
    source_code_points: number;
    source_utf8_bytes: number;
    source_sha256: string;
  } | null;
};

/** What a success of palimpsest_read_target carries. */
export type ReadTargetAnswer = {
  status: "ok";
  target_file_id: string;
  version: number;
  current_hash: string;
  start: number;
  end: number;
  text: string;
  total_chars: number;
  truncated: boolean;
  next_start: number | null;
};

/** What a success of palimpsest_read_lines carries. */
export type ReadLinesAnswer = {
  status: "ok";
  target_file_id: string;
  version: number;
  current_hash: string;
  total_lines: number;
  start_line: number;
  end_line: number;
  start: number;
  end: number;
  text: string;
  truncated: boolean;
  next_offset: number | null;
  next_start: number | null;
  line_starts?: Array<{
    line: number;
    start: number;
  }>;
};

/** What a success of palimpsest_find_occurrences carries. */
export type FindOccurrencesAnswer = {
  status: "ok";
  target_file_id: string;
  version: number;
  current_hash: string;
  occurrence_count: number;
  returned_count: number;
  occurrences: Array<{
    occurrence_index: number;
    start: number;
    end: number;
    before: string;
    after: string;
  }>;
  truncated: boolean;
  next_occurrence_index: number | null;
};

/** What a success of palimpsest_observe_scope carries. */
export type ObserveScopeAnswer = {
  status: "candidates" | "observed" | "observed_batch" | "scope_page";
  observation_id?: string | null;
  target_file_id: string;
  target_version: number;
  target_current_hash: string;
  editing_cycle_id?: string;
  language: string;
  engine: string;
  candidates?: Array<{
    name: string;
    kind: string;
    parent: string | null;
    start: number;
    end: number;
    start_line: number;
    end_line: number;
  }>;
  total_candidates?: number;
  candidates_truncated?: boolean;
  symbol?: {
    name: string;
    kind: string;
    parent: string | null;
  };
  scope_start?: number;
  scope_end?: number;
  scope_length?: number;
  observed_scope_hash?: string;
  offset?: number;
  max_chars?: number;
  start?: number;
  end?: number;
  text?: string;
  truncated?: boolean;
  next_offset?: number | null;
  next_start?: number | null;
  start_line?: number;
  end_line?: number;
  line_starts?: Array<{
    line: number;
    start: number;
  }>;
  bundle_id?: string | null;
  scope_count?: number;
  scopes?: Array<Record<string, unknown>>;
};

/** What a success of palimpsest_submit_observed_operations carries. */
export type SubmitObservedOperationsAnswer = {
  status: "accepted";
  target_file_id: string;
  before_hash: string;
  after_hash: string;
  version: number;
  current_version: number;
  current_hash: string;
  attempt_id: string;
  log_sequence: number;
  manifest_entries_added: number;
  warnings: Array<string>;
  warning_details: Array<Record<string, unknown>>;
  warning_count: number;
  warnings_truncated: boolean;
  validity: Validity;
  evidence: Evidence;
  deduplicated: boolean;
  client_request_id: string | null;
  correlation_id?: string;
  rebased?: Rebased;
  workspace_sync?: WorkspaceSync;
  before_version?: number;
  observation_bundle_id?: string;
  group_count?: number;
  change_count?: number;
  groups?: Array<{
    group_index: number;
    observation_id: string;
    ordinal: number;
    symbol_name: string;
    scope_start: number;
    scope_end: number;
    change_count: number;
  }>;
};

/** What a success of palimpsest_submit_operations carries. */
export type SubmitOperationsAnswer = SubmitEditsAnswer;

/** What a success of palimpsest_submit_replacement carries. */
export type SubmitReplacementAnswer = SubmitEditsAnswer;

/** What a success of palimpsest_preview carries. */
export type PreviewAnswer = {
  status: "accepted" | "rejected";
  preview: true;
  advisory: true;
  target_file_id: string;
  stage?: string;
  validity?: Validity;
  current_version: number;
  current_hash: string;
  before_version?: number;
  before_hash?: string;
  after_hash?: string | null;
  change_facts?: Array<ChangesItem>;
  failure_reason?: string;
  diagnostic?: Record<string, unknown> | null;
};

/** What a success of palimpsest_save carries. */
export type SaveAnswer = {
  status: "saved";
  target_file_id: string;
  snapshot_id: string;
  closed_editing_cycle_id: string;
  new_editing_cycle_id: string;
  current_hash: string;
  version: number;
  workspace_sync?: {
    synced_path: string;
    disk_sha256: string;
    bytes_written: number;
    content_eol: "lf" | "crlf" | "cr";
    publication: "installed";
    durability: "confirmed" | "uncertain";
    journal: {
      id: string;
      state: "committed";
    };
  };
};

/** What a success of palimpsest_replay carries. */
export type ReplayAnswer = {
  status: "success" | "failed";
  target_file_id: string;
  reconstructed_hash: string | null;
  current_hash: string | null;
  reconstructed_version: number | null;
  current_version: number | null;
  accepted_transactions_replayed: number;
  materialized_state_matches: boolean;
  materialized_state_checks: {
    content_matches: boolean;
    stored_hash_matches: boolean;
    recomputed_hash_matches: boolean;
    version_matches: boolean;
  };
  failure_reason?: "replay_protocol_invalid" | "replay_diverged";
  failure_detail?: string;
  diverged_attempt_id?: string;
};

/** What a success of palimpsest_get_attempt_log carries. */
export type GetAttemptLogAnswer = {
  status: "ok";
  target_file_id: string;
  entries: Array<{
    attempt_id: string;
    log_sequence: number;
    status: "accepted" | "rejected";
    before_version: number;
    after_version: number | null;
    code?: string | null;
    summary?: string;
    client_request_id: string | null;
    intent: string | null;
    source: string;
    created_at: string;
    protocol_version?: string | null;
    runtime_version?: string | null;
    request_fingerprint?: string;
    before_hash?: string;
    after_hash?: string | null;
    failure_reason?: string | null;
    diagnostic?: Record<string, unknown> | null;
  }>;
  has_more: boolean;
  next_sequence: number | null;
};

/** What a success of palimpsest_get_manifest_ledger carries. */
export type GetManifestLedgerAnswer = {
  status: "ok";
  target_file_id: string;
  entries: Array<{
    ledger_sequence: number;
    attempt_id: string;
    log_sequence: number;
    before_version: number;
    after_version: number;
    change_index: number;
    change_id: string;
    intent: string | null;
    origin: string;
    derived: Record<string, unknown>;
    created_at: string;
  }>;
  has_more: boolean;
  next_sequence: number | null;
};

/** What a success of palimpsest_capabilities carries. */
export type CapabilitiesAnswer = {
  status: "ok";
  service: "palimpsest";
  profile: string;
  policy: Record<string, unknown> | null;
  operations: Array<{
    name: string;
    read_only: boolean;
    status?: string;
    errors?: Array<string>;
  }>;
  error_codes: Array<string>;
  workspace: {
    configured: boolean;
    root: string | null;
    device: string | null;
    inode: string | null;
  };
  limits: Record<string, number>;
  profiles: Array<{
    protocol: string;
    runtime: string;
    operations: Array<string>;
  }>;
  detail: boolean;
};

/** What a success of palimpsest_workspace_refresh carries. */
export type WorkspaceRefreshAnswer = {
  status: "refreshed" | "in_sync";
  target_file_id: string;
  path: string;
  attempt_id?: string | null;
  version: number;
  current_hash: string;
  disk_sha256: string;
  previous_disk_sha256?: string;
  journal_resolved?: string | null;
};
