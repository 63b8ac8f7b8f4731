// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.
import type { From, Checkpoint, Disk, ChangedPathsItem, Snapshot, Coverage, Truncation, NodesItem, Start, EdgesItem, ProjectsItem } from './palimpsest-answer-parts';

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

/** What a success of palimpsest_open_snapshot carries. */
export type OpenSnapshotAnswer = {
  status: "ok";
  snapshot: {
    id: string;
    log_sequence: number;
    captured_at: string;
    files: number;
    total_bytes: number;
    disk: Disk;
  };
  recorded: boolean;
  held: boolean;
  root: string;
};

/** What a success of palimpsest_snapshot_status carries. */
export type SnapshotStatusAnswer = {
  status: "ok";
  state: "unchanged" | "changed" | "no_snapshot";
  latest: string;
  latest_recorded: boolean;
  disk: {
    state: "unchanged" | "changed";
    changed_paths: Array<ChangedPathsItem>;
    changed_total: number;
    latest: string;
  } | null;
  snapshots: Array<{
    id: string;
    log_sequence: number;
    captured_at: string;
    files: number;
    total_bytes: number;
  }>;
  total: number;
  root: string;
};

/** What a success of palimpsest_read_snapshot_file carries. */
export type ReadSnapshotFileAnswer = {
  status: "ok";
  path: string;
  content: string;
  truncated: boolean;
  totalLines: number;
  file: {
    sha256: string;
    source: "log" | "disk";
    target_file_id: string | null;
    version: number | null;
  };
  snapshot: {
    id: string;
    log_sequence: number;
    disk: Disk;
  };
};

/** What a success of palimpsest_node_find carries. */
export type NodeFindAnswer = {
  status: "ok";
  snapshot: Snapshot;
  coverage: Coverage;
  truncation: Truncation;
  nodes: Array<NodesItem>;
  matches: Array<{
    node: string;
    reasons: Array<"name" | "id">;
  }>;
};

/** What a success of palimpsest_node_get carries. */
export type NodeGetAnswer = {
  status: "ok";
  snapshot: Snapshot;
  coverage: Coverage;
  truncation: Truncation;
  nodes: Array<{
    node: NodesItem;
    qualified_name: string;
    language: string;
    layers: Array<string>;
    range: {
      start: Start;
      end: Start;
    };
    signature: string;
    body?: string;
    edges?: Array<{
      direction: "incoming" | "outgoing";
      kind: string;
      layer: string;
      node: string;
      site: Start;
    }>;
  }>;
};

/** What a success of palimpsest_graph_query carries. */
export type GraphQueryAnswer = {
  status: "ok";
  snapshot: Snapshot;
  coverage: Coverage;
  truncation: Truncation;
  traversed: {
    direction: "outgoing" | "incoming";
    edge_kinds: Array<string>;
    layers: Array<string>;
  };
  nodes: Array<NodesItem>;
  edges: Array<EdgesItem>;
  paths?: Array<{
    from: string;
    to: string;
    nodes: Array<string>;
  }>;
  boundaries: Array<{
    kind: "external_module" | "unresolved_name";
    from: string;
    name: string;
    module: string | null;
    site: Start;
  }>;
};

/** What a success of palimpsest_context_build carries. */
export type ContextBuildAnswer = {
  status: "ok";
  snapshot: Snapshot;
  coverage: Coverage;
  truncation: Truncation;
  purpose: "understand" | "change_behavior" | "diagnose";
  items: Array<{
    node: NodesItem;
    depth: number;
    required: boolean;
    reasons: Array<{
      kind: "focus" | "expand" | "caller" | "callee" | "test";
      text: string;
      via?: string;
    }>;
    signature: string;
    body?: string;
  }>;
  edges: Array<EdgesItem>;
};

/** What a success of palimpsest_impact_analyze carries. */
export type ImpactAnalyzeAnswer = {
  status: "ok";
  snapshot: Snapshot;
  coverage: Coverage;
  truncation: Truncation;
  impacted: Array<{
    node: NodesItem;
    depth: number;
    from: string;
    edge_kind: string;
    layer: string;
    site: Start;
  }>;
  tests: Array<{
    path: string;
    reaches: Array<string>;
  }>;
};

/** What a success of list_projects carries. */
export type ListProjectsAnswer = {
  status: "ok";
  projects: Array<ProjectsItem>;
  active: string | null;
};

/** What a success of get_active_project carries. */
export type GetActiveProjectAnswer = {
  status: "ok";
  project: ProjectsItem;
};

/** What a success of set_active_project carries. */
export type SetActiveProjectAnswer = {
  status: "ok";
  project: ProjectsItem;
};
