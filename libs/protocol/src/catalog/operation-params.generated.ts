// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.

/** The arguments a caller sends, as the params schema describes them. */
export interface OperationParams {
  palimpsest_initialize_target: {
    filename: string;
    content?: string | null;
    content_type?: string | null;
    project_id?: string | null;
    from_workspace?: boolean;
    publish?: "on_accept" | "on_save" | null;
  };
  palimpsest_handle_upload: {
    filename: string;
    content: string | null;
    content_type?: string | null;
    project_id?: string | null;
    from_workspace?: boolean;
  };
  palimpsest_get_target: {
    target_file_id: string;
    as_of?: {
      [extra: string]: unknown;
    };
  };
  palimpsest_export_target: {
    target_file_id: string;
    format?: string | null;
    as_of?: {
      [extra: string]: unknown;
    };
  };
  palimpsest_read_target: {
    target_file_id: string;
    start?: number;
    length?: number | null;
    as_of?: {
      [extra: string]: unknown;
    };
  };
  palimpsest_read_lines: {
    target_file_id: string;
    start_line?: number;
    end_line?: number | null;
    offset?: number;
    max_chars?: number | null;
    include_line_starts?: boolean;
    as_of?: {
      [extra: string]: unknown;
    };
  };
  palimpsest_find_occurrences: {
    target_file_id: string;
    text: string;
    context_chars?: number;
    start_occurrence?: number;
    max_results?: number;
    as_of?: {
      [extra: string]: unknown;
    };
  };
  palimpsest_observe_scope: {
    target_file_id: string;
    query?: string | null;
    symbol_name?: string | null;
    kind?: "function" | "class" | "method" | "variable" | "interface" | "type" | "enum" | "namespace" | "section" | "code_block" | "table_row" | "config_item" | "object" | null;
    start_line?: number | null;
    observation_id?: string | null;
    offset?: number;
    max_chars?: number | null;
    include_line_starts?: boolean;
    selections?: Array<{
      symbol_name: string;
      kind?: "function" | "class" | "method" | "variable" | "interface" | "type" | "enum" | "namespace" | "section" | "code_block" | "table_row" | "config_item" | "object" | null;
    }> | null;
  };
  palimpsest_submit_observed_operations: {
    target_file_id: string;
    intent: string;
    expected_target_version?: number | null;
    expected_current_hash?: string | null;
    source?: string;
    parent_attempt_id?: string | null;
    attempt?: number | null;
    client_request_id?: string | null;
    include_correlation_id?: boolean;
    observation_id?: string;
    operations?: Array<{
      [extra: string]: unknown;
    }>;
    observation_bundle_id?: string;
    groups?: Array<{
      observation_id: string;
      operations: Array<{
        [extra: string]: unknown;
      }>;
    }>;
  };
  palimpsest_submit_edits: {
    target_file_id: string;
    intent: string;
    expected_target_version?: number | null;
    expected_current_hash?: string | null;
    source?: string;
    parent_attempt_id?: string | null;
    attempt?: number | null;
    client_request_id?: string | null;
    include_correlation_id?: boolean;
    rebase?: boolean | null;
    edits: Array<{
      match: string;
      replace: string;
      occurrence_index?: number | null;
      anchor_before?: string | null;
      anchor_after?: string | null;
      change_id?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    }>;
  };
  palimpsest_submit_operations: {
    target_file_id: string;
    intent: string;
    expected_target_version?: number | null;
    expected_current_hash?: string | null;
    source?: string;
    parent_attempt_id?: string | null;
    attempt?: number | null;
    client_request_id?: string | null;
    include_correlation_id?: boolean;
    rebase?: boolean | null;
    operations: Array<{
      op: "match";
      match: string;
      replace: string;
      occurrence_index?: number | null;
      anchor_before?: string | null;
      anchor_after?: string | null;
      change_id?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    } | {
      op: "span";
      start: number;
      end: number;
      expected_text: string;
      replace: string;
      expected_before?: string | null;
      expected_after?: string | null;
      change_id?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    }>;
  };
  palimpsest_submit_replacement: {
    target_file_id: string;
    intent: string;
    expected_target_version?: number | null;
    expected_current_hash?: string | null;
    source?: string;
    parent_attempt_id?: string | null;
    attempt?: number | null;
    client_request_id?: string | null;
    include_correlation_id?: boolean;
    replacement: string;
  };
  palimpsest_preview: {
    target_file_id: string;
    format: "patchdiff-tx/1" | "patchdiff-tx/2" | "patchdiff-tx/3";
    expected_target_version?: number | null;
    expected_current_hash?: string | null;
    intent?: string;
    edits?: Array<{
      match: string;
      replace: string;
      occurrence_index?: number | null;
      anchor_before?: string | null;
      anchor_after?: string | null;
      change_id?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    }>;
    operations?: Array<{
      op: "match";
      match: string;
      replace: string;
      occurrence_index?: number | null;
      anchor_before?: string | null;
      anchor_after?: string | null;
      change_id?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    } | {
      op: "span";
      start: number;
      end: number;
      expected_text: string;
      replace: string;
      expected_before?: string | null;
      expected_after?: string | null;
      change_id?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    }>;
    replacement?: string;
  };
  palimpsest_save: {
    target_file_id: string;
    expected_target_version?: number | null;
    expected_current_hash?: string | null;
    export_after_save?: boolean;
    sync_workspace?: boolean | null;
    workspace_eol_format?: string | null;
  };
  palimpsest_replay: {
    target_file_id: string;
  };
  palimpsest_get_attempt_log: {
    target_file_id: string;
    limit?: number | null;
    before_sequence?: number | null;
    status?: "accepted" | "rejected" | null;
    content_hash?: string | null;
    client_request_id?: string | null;
    include_content?: boolean;
    detail?: boolean;
  };
  palimpsest_get_manifest_ledger: {
    target_file_id: string;
    include_previous_cycles?: boolean;
    limit?: number | null;
    before_sequence?: number | null;
  };
  palimpsest_capabilities: {
    detail?: boolean;
  };
  palimpsest_workspace_refresh: {
    target_file_id: string;
    expected_target_version?: number | null;
    expected_current_hash?: string | null;
  };
  palimpsest_workspace_status: {
    path_prefix?: string | null;
    state?: "in_sync" | "drifted" | "missing" | "pending" | "unreachable" | null;
    limit?: number | null;
    cursor?: string | null;
  };
  grep: {
    pattern: string;
    path?: string;
    glob?: string;
    caseInsensitive?: boolean;
    maxResults?: number;
  };
  list_files: {
    path?: string;
    recursive?: boolean;
    glob?: string;
  };
  read_file: {
    path: string;
    offset?: number;
    limit?: number;
    as_of?: {
      [extra: string]: unknown;
    };
  };
  edit_file: {
    path: string;
    oldString: string;
    newString: string;
    near_line?: number;
    detail?: boolean;
  };
  write_file: {
    path: string;
    content: string;
  };
  run_command: {
    command: string;
    cwd?: string;
    timeoutMs?: number;
  };
  start_command: {
    command: string;
    cwd?: string;
  };
  get_command_output: {
    processId: string;
    cursor?: number;
    waitMs?: number;
  };
  send_command_input: {
    processId: string;
    data: string;
    newline?: boolean;
  };
  kill_command: {
    processId: string;
  };
  palimpsest_change_propose: {
    request_id: string;
    base: Array<{
      target_file_id: string;
      version: number;
    }>;
    operations: Array<{
      kind: "edit";
      target_file_id: string;
      handle?: string;
      match: string;
      replace: string;
      occurrence_index?: number | null;
      anchor_before?: string | null;
      anchor_after?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    } | {
      kind: "match";
      target_file_id: string;
      handle?: string;
      match: string;
      replace: string;
      occurrence_index?: number | null;
      anchor_before?: string | null;
      anchor_after?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    } | {
      kind: "span";
      target_file_id: string;
      handle?: string;
      start?: number;
      end?: number;
      range?: {
        handle: string;
      };
      expected_text?: string;
      replace: string;
      expected_before?: string | null;
      expected_after?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    } | {
      kind: "replace_all";
      target_file_id: string;
      handle?: string;
      replacement: string;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    }>;
    intent?: string | null;
    candidate?: string;
    expected_candidate_version?: number;
    checks?: Array<string>;
  };
  palimpsest_edit_plan: {
    base: Array<{
      target_file_id: string;
      version: number;
    }>;
    operations: Array<{
      kind: "edit";
      target_file_id: string;
      handle?: string;
      match: string;
      replace: string;
      occurrence_index?: number | null;
      anchor_before?: string | null;
      anchor_after?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    } | {
      kind: "match";
      target_file_id: string;
      handle?: string;
      match: string;
      replace: string;
      occurrence_index?: number | null;
      anchor_before?: string | null;
      anchor_after?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    } | {
      kind: "span";
      target_file_id: string;
      handle?: string;
      start?: number;
      end?: number;
      range?: {
        handle: string;
      };
      expected_text?: string;
      replace: string;
      expected_before?: string | null;
      expected_after?: string | null;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    } | {
      kind: "replace_all";
      target_file_id: string;
      handle?: string;
      replacement: string;
      rationale?: string | null;
      risk?: "low" | "medium" | "high" | null;
    }>;
    intent?: string | null;
  };
  palimpsest_change_inspect: {
    candidate: string;
    include?: Array<"semantic_diff" | "source_diff" | "content" | "checks">;
    targets?: Array<string>;
    context_lines?: number;
  };
  palimpsest_check_run: {
    candidate: string;
    checks: Array<string>;
  };
  palimpsest_change_apply: {
    candidate: string;
    expected_candidate_version: number;
    request_id: string;
    require_checks?: Array<string>;
  };
  palimpsest_change_discard: {
    candidate: string;
    expected_candidate_version?: number;
  };
  palimpsest_search_targets: {
    query: string;
    limit?: number | null;
    offset?: number | null;
    min_position?: number | null;
    max_wait_ms?: number | null;
  };
  palimpsest_get_target_activity: {
    target_file_id?: string | null;
    window_minutes?: number | null;
    until?: string | null;
    min_position?: number | null;
    max_wait_ms?: number | null;
  };
  palimpsest_changes_since: {
    target_file_id?: string | null;
    from_version?: number | null;
    from_position?: number | null;
    limit?: number | null;
    max_inserted_code_points?: number | null;
  };
  palimpsest_relocate_range: {
    target_file_id?: string | null;
    version?: number | null;
    start?: number | null;
    end?: number | null;
    observation_id?: string | null;
  };
  palimpsest_undo_attempt: {
    target_file_id: string;
    attempt_id: string;
    client_request_id?: string | null;
  };
  palimpsest_undo_edit: {
    path: string;
    attempt_id: string;
  };
  palimpsest_list_sessions: {
    before_position?: number | null;
    limit?: number | null;
  };
  palimpsest_session_activity: {
    correlation_id: string;
    after_position?: number | null;
    limit?: number | null;
  };
  palimpsest_diff_versions: {
    target_file_id: string;
    from: {
      [extra: string]: unknown;
    };
    to?: {
      [extra: string]: unknown;
    };
    start_hunk?: number;
    max_chars?: number;
    attempts_limit?: number;
    after_sequence?: number;
  };
  palimpsest_file_history: {
    path: string;
    before_version?: number | null;
    limit?: number | null;
  };
  palimpsest_workspace_as_of: {
    as_of: {
      [extra: string]: unknown;
    };
    limit?: number | null;
    cursor?: string | null;
  };
  palimpsest_prove_event: {
    global_position: number;
    checkpoint_size?: number | null;
  };
  palimpsest_prove_consistency: {
    first_size?: number | null;
    second_size?: number | null;
  };
}
