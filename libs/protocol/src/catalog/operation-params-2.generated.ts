// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.

/** Part 2 of OperationParams (see operation-params.generated.ts). */
export interface OperationParamsPart2 {
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
    min_position?: number | null;
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
    min_position?: number | null;
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
  palimpsest_open_snapshot: {
    snapshot?: string;
  };
  palimpsest_snapshot_status: {
    limit?: number | null;
  };
  palimpsest_read_snapshot_file: {
    snapshot: string;
    path: string;
    offset?: number;
    limit?: number;
  };
  palimpsest_node_find: {
    query: string;
    kind?: string;
    path?: string;
    limit?: number;
    snapshot?: string;
    limits?: {
      max_bytes?: number;
      max_depth?: number;
      max_items?: number;
      max_nodes?: number;
    };
  };
  palimpsest_node_get: {
    nodes: Array<string>;
    include?: Array<"edges" | "body">;
    snapshot?: string;
    limits?: {
      max_bytes?: number;
      max_depth?: number;
      max_items?: number;
      max_nodes?: number;
    };
  };
  palimpsest_graph_query: {
    from: Array<string>;
    mode: "dependencies" | "dependents" | "references" | "paths";
    to?: Array<string>;
    layers?: Array<"declared" | "resolved">;
    edge_kinds?: Array<"calls" | "references" | "imports" | "extends">;
    transitive?: boolean;
    cursor?: string;
    snapshot?: string;
    limits?: {
      max_bytes?: number;
      max_depth?: number;
      max_items?: number;
      max_nodes?: number;
    };
  };
  palimpsest_context_build: {
    focus: Array<string>;
    purpose: "understand" | "change_behavior" | "diagnose";
    expand?: Array<string>;
    snapshot?: string;
    limits?: {
      max_bytes?: number;
      max_depth?: number;
      max_items?: number;
      max_nodes?: number;
    };
  };
  palimpsest_impact_analyze: {
    targets: Array<string>;
    direction?: "dependents" | "dependencies" | "both";
    layers?: Array<"declared" | "resolved">;
    snapshot?: string;
    limits?: {
      max_bytes?: number;
      max_depth?: number;
      max_items?: number;
      max_nodes?: number;
    };
  };
  list_projects: Record<string, never>;
  get_active_project: Record<string, never>;
  set_active_project: {
    project: string;
  };
}
