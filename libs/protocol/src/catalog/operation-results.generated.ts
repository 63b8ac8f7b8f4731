// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.

/** The answers, as the result schema describes them (status first, the rest per status). */
export interface OperationResults {
  palimpsest_initialize_target: {
    status: "ok" | "invalid_argument" | "not_found";
  };
  palimpsest_handle_upload: {
    status: "ok" | "invalid_argument" | "not_found";
  };
  palimpsest_get_target: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_export_target: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_read_target: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_read_lines: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_find_occurrences: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_observe_scope: {
    status: "candidates" | "observed" | "observed_batch" | "scope_page" | "not_found" | "ambiguous" | "rejected" | "unsupported" | "invalid_argument";
  };
  palimpsest_submit_observed_operations: {
    status: "accepted" | "rejected" | "partial" | "invalid_argument" | "not_found";
  };
  palimpsest_submit_edits: {
    status: "accepted" | "rejected" | "partial" | "invalid_argument" | "not_found";
  };
  palimpsest_submit_operations: {
    status: "accepted" | "rejected" | "partial" | "invalid_argument" | "not_found";
  };
  palimpsest_submit_replacement: {
    status: "accepted" | "rejected" | "partial" | "invalid_argument" | "not_found";
  };
  palimpsest_preview: {
    status: "accepted" | "rejected" | "invalid_argument" | "not_found";
  };
  palimpsest_save: {
    status: "saved" | "rejected" | "partial" | "not_found" | "invalid_argument";
  };
  palimpsest_replay: {
    status: "success" | "failed" | "not_found" | "invalid_argument";
  };
  palimpsest_get_attempt_log: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_get_manifest_ledger: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_capabilities: {
    status: "ok" | "invalid_argument";
  };
  palimpsest_workspace_refresh: {
    status: "refreshed" | "in_sync" | "rejected" | "not_found" | "invalid_argument";
  };
  palimpsest_workspace_status: {
    status: "ok" | "invalid_argument";
  };
  grep: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  list_files: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  read_file: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  edit_file: {
    status: "ok" | "rejected" | "partial" | "not_found" | "invalid_argument";
  };
  write_file: {
    status: "ok" | "rejected" | "partial" | "not_found" | "invalid_argument";
  };
  run_command: {
    status: "ok" | "rejected" | "not_found" | "invalid_argument";
  };
  start_command: {
    status: "ok" | "rejected" | "not_found" | "invalid_argument";
  };
  get_command_output: {
    status: "ok" | "rejected" | "not_found" | "invalid_argument";
  };
  send_command_input: {
    status: "ok" | "rejected" | "not_found" | "invalid_argument";
  };
  kill_command: {
    status: "ok" | "rejected" | "not_found" | "invalid_argument";
  };
  palimpsest_change_propose: {
    status: "ok" | "error" | "invalid_argument";
    error?: {
      code: string;
      reason?: string;
      message: string;
      retryable: "none" | "same_request" | "after_refresh";
      next_actions: Array<unknown>;
    };
    replayed?: boolean;
    candidate?: Record<string, unknown>;
    operations?: Array<unknown>;
    files?: Array<unknown>;
  };
  palimpsest_edit_plan: {
    status: "ok" | "error" | "invalid_argument";
    error?: {
      code: string;
      reason?: string;
      message: string;
      retryable: "none" | "same_request" | "after_refresh";
      next_actions: Array<unknown>;
    };
    outcome?: string;
    operations?: Array<unknown>;
    files?: Array<unknown>;
    required_checks?: Array<unknown>;
  };
  palimpsest_change_inspect: {
    status: "ok" | "error" | "invalid_argument";
    error?: {
      code: string;
      reason?: string;
      message: string;
      retryable: "none" | "same_request" | "after_refresh";
      next_actions: Array<unknown>;
    };
    candidate?: Record<string, unknown>;
    files?: Array<unknown>;
    targets?: Array<unknown>;
  };
  palimpsest_check_run: {
    status: "ok" | "error" | "invalid_argument";
    error?: {
      code: string;
      reason?: string;
      message: string;
      retryable: "none" | "same_request" | "after_refresh";
      next_actions: Array<unknown>;
    };
    ok?: boolean;
    checks?: Array<unknown>;
  };
  palimpsest_change_apply: {
    status: "ok" | "error" | "invalid_argument";
    error?: {
      code: string;
      reason?: string;
      message: string;
      retryable: "none" | "same_request" | "after_refresh";
      next_actions: Array<unknown>;
    };
    replayed?: boolean;
    receipt?: Record<string, unknown>;
    base_changes?: Array<unknown>;
  };
  palimpsest_change_discard: {
    status: "ok" | "error" | "invalid_argument";
    error?: {
      code: string;
      reason?: string;
      message: string;
      retryable: "none" | "same_request" | "after_refresh";
      next_actions: Array<unknown>;
    };
    candidate?: Record<string, unknown>;
    released?: boolean;
  };
  palimpsest_search_targets: {
    status: "ok" | "invalid_argument";
  };
  palimpsest_get_target_activity: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_changes_since: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_relocate_range: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_undo_attempt: {
    status: "accepted" | "rejected" | "partial" | "not_found" | "invalid_argument";
  };
  palimpsest_undo_edit: {
    status: "accepted" | "rejected" | "partial" | "not_found" | "invalid_argument";
  };
  palimpsest_list_sessions: {
    status: "ok" | "invalid_argument";
  };
  palimpsest_session_activity: {
    status: "ok" | "invalid_argument";
  };
  palimpsest_diff_versions: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_file_history: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_workspace_as_of: {
    status: "ok" | "invalid_argument";
  };
  palimpsest_prove_event: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_prove_consistency: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_open_snapshot: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_snapshot_status: {
    status: "ok" | "invalid_argument";
  };
  palimpsest_read_snapshot_file: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_node_find: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_node_get: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_graph_query: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_context_build: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  palimpsest_impact_analyze: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  list_projects: {
    status: "ok" | "invalid_argument";
  };
  get_active_project: {
    status: "ok" | "not_found" | "invalid_argument";
  };
  set_active_project: {
    status: "ok" | "not_found" | "invalid_argument";
  };
}
