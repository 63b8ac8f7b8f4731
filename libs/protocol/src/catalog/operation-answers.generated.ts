// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.

/** What each success carries, field by field, as ANSWER_SCHEMAS describes it (answer-schemas.ts). */
export interface OperationAnswers {
  palimpsest_initialize_target: InitializeTargetAnswer;
  palimpsest_handle_upload: InitializeTargetAnswer;
  palimpsest_get_target: {
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
  palimpsest_export_target: {
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
  palimpsest_read_target: {
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
  palimpsest_read_lines: {
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
  palimpsest_find_occurrences: {
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
  palimpsest_observe_scope: {
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
  palimpsest_submit_observed_operations: {
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
  palimpsest_submit_edits: SubmitEditsAnswer;
  palimpsest_submit_operations: SubmitEditsAnswer;
  palimpsest_submit_replacement: SubmitEditsAnswer;
  palimpsest_preview: {
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
  palimpsest_save: {
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
  palimpsest_replay: {
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
  palimpsest_get_attempt_log: {
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
  palimpsest_get_manifest_ledger: {
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
  palimpsest_capabilities: {
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
  palimpsest_workspace_refresh: {
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
  palimpsest_workspace_status: {
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
  grep: {
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
  list_files: {
    status: "ok";
    path: string;
    entries: Array<{
      path: string;
      type: "file" | "directory" | "symlink";
      size?: number;
    }>;
    truncated: boolean;
  };
  read_file: {
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
  edit_file: {
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
  write_file: {
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
  run_command: {
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
  start_command: {
    status: "ok";
    processId: string;
    command: string;
    pid: unknown;
  };
  get_command_output: {
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
  send_command_input: {
    status: "ok";
    processId: string;
    bytesWritten: number;
  };
  kill_command: {
    status: "ok";
    processId: string;
    killed: boolean;
    exitCode: unknown;
    signal?: unknown;
  };
  palimpsest_change_propose: {
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
  palimpsest_edit_plan: {
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
  palimpsest_change_inspect: {
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
  palimpsest_check_run: {
    status: "ok";
    ok: boolean;
    candidate: string;
    candidate_version: number;
    checks: Array<ChecksItem>;
  };
  palimpsest_change_apply: {
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
  palimpsest_change_discard: {
    status: "ok";
    candidate: Candidate;
    released: boolean;
  };
  palimpsest_search_targets: {
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
  palimpsest_get_target_activity: {
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
  palimpsest_changes_since: {
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
  palimpsest_relocate_range: {
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
  palimpsest_undo_attempt: {
    status: "accepted";
    undone_attempt_id: string;
    attempt_id: string;
    target_file_id: string;
    version: number;
    current_hash: string;
  };
  palimpsest_undo_edit: {
    status: "accepted";
    undone_attempt_id: string;
    attempt_id: string;
    target_file_id: string;
    version: number;
    current_hash: string;
    path?: string;
  };
  palimpsest_list_sessions: {
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
  palimpsest_session_activity: {
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
  palimpsest_diff_versions: {
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
  palimpsest_file_history: {
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
  palimpsest_workspace_as_of: {
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
  palimpsest_prove_event: {
    status: "ok";
    global_position: number;
    leaf_index: number;
    tree_size: number;
    leaf_hash: string;
    audit_path: Array<string>;
    checkpoint: Checkpoint;
  };
  palimpsest_prove_consistency: {
    status: "ok";
    first: Checkpoint;
    second: Checkpoint;
    proof_hashes: Array<string>;
  };
}

/** A part several answers share. */
export type InitializeTargetAnswer = {
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
};

/** A part several answers share. */
export type SourceLineEndings = {
  style: "lf" | "crlf" | "cr" | "mixed" | "none";
  lf: number;
  crlf: number;
  cr: number;
  normalized: boolean;
  source_code_points: number;
  source_utf8_bytes: number;
  source_sha256: string;
} | null;

/** A part several answers share. */
export type Workspace = {
  path: string;
  source_sha256: string;
  publish?: "on_accept" | "on_save";
} | null;

/** A part several answers share. */
export type Validity = {
  protocol_valid: boolean;
  transaction_valid: boolean;
  task_correct: string;
  semantic: string;
};

/** A part several answers share. */
export type Evidence = {
  changes: Array<ChangesItem>;
};

/** A part several answers share. */
export type ChangesItem = {
  change_id: string;
  change_index: number;
  span_start: number;
  span_end: number;
  matched_chars: number;
  replacement_chars: number;
  matched_sha256: string;
  replacement_sha256: string;
  operation?: string;
};

/** A part several answers share. */
export type WorkspaceSync = {
  synced_path: string;
  disk_sha256: string;
  bytes_written: number;
  content_eol: string;
  publication: "installed";
  durability: "confirmed" | "uncertain";
  journal: {
    id: string;
    state: "committed";
  };
};

/** A part several answers share. */
export type SubmitEditsAnswer = {
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
  workspace_sync?: WorkspaceSync;
};

/** A part several answers share. */
export type Journal = {
  id: string;
  state: "committed";
};

/** A part several answers share. */
export type Candidate = {
  id: string;
  version: number;
  state: "open" | "applied" | "discarded" | "expired";
  intent: string | null;
  base: Array<{
    target_file_id: string;
    filename: string;
    version: number;
    hash: string;
  }>;
  request_id: string;
  created_at: string;
  expires_at: string;
};

/** A part several answers share. */
export type FilesItem = {
  target_file_id: string;
  filename: string;
  change: string;
  base_version: number;
  before_sha256: string;
  after_sha256: string;
};

/** A part several answers share. */
export type ChecksItem = {
  check: string;
  kind: string;
  status: string;
  ok: boolean;
  targets: Array<{
    target_file_id: string;
    ok: boolean;
    message?: string | null;
  }>;
};

/** A part several answers share. */
export type Projection = {
  name: string;
  checkpoint_position: number;
  caught_up: boolean;
  behind_by_events: number;
  min_position: number | null;
  min_position_reached: boolean | null;
  waited_ms: number;
};

/** A part several answers share. */
export type From = {
  version: number;
  after_hash: string;
  written_at: string;
  log_sequence: number;
  attempt_id: string | null;
};

/** A part several answers share. */
export type Checkpoint = {
  origin: string;
  size: number;
  root_hash: string;
  signed_note: string;
  global_position: number;
};
