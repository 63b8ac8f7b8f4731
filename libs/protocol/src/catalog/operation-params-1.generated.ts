// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.

/** Part 1 of OperationParams (see operation-params.generated.ts). */
export interface OperationParamsPart1 {
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
    expected_node_version?: string;
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
    min_position?: number | null;
  };
  palimpsest_get_manifest_ledger: {
    target_file_id: string;
    include_previous_cycles?: boolean;
    limit?: number | null;
    before_sequence?: number | null;
    min_position?: number | null;
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
    project?: string;
  };
  list_files: {
    path?: string;
    recursive?: boolean;
    glob?: string;
    project?: string;
  };
  read_file: {
    path: string;
    offset?: number;
    limit?: number;
    as_of?: {
      [extra: string]: unknown;
    };
    project?: string;
  };
  edit_file: {
    path: string;
    oldString: string;
    newString: string;
    near_line?: number;
    detail?: boolean;
    project?: string;
    client_request_id?: string;
  };
  write_file: {
    path: string;
    content: string;
    project?: string;
    client_request_id?: string;
  };
  run_command: {
    command: string;
    cwd?: string;
    timeoutMs?: number;
    project?: string;
    client_request_id?: string;
  };
  start_command: {
    command: string;
    cwd?: string;
    project?: string;
    client_request_id?: string;
  };
  get_command_output: {
    processId: string;
    cursor?: number;
    waitMs?: number;
    project?: string;
  };
  send_command_input: {
    processId: string;
    data: string;
    newline?: boolean;
    project?: string;
    client_request_id?: string;
  };
  kill_command: {
    processId: string;
    project?: string;
    client_request_id?: string;
  };
}
