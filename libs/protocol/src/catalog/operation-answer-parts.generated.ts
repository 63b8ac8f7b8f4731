// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.

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
export type Rebased = {
  from_version: number;
  through_attempts: number;
  spans: Array<{
    change_index: number;
    from_start: number;
    from_end: number;
    start: number;
    end: number;
  }>;
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
  rebased?: Rebased;
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

/** A part several answers share. */
export type Disk = {
  state: "unchanged" | "changed";
  changed_paths: Array<ChangedPathsItem>;
  changed_total: number;
  latest: string;
};

/** A part several answers share. */
export type ChangedPathsItem = {
  path: string;
  change: "modified" | "deleted" | "added";
};

/** A part several answers share. */
export type Snapshot = {
  id: string;
  log_sequence: number;
  files: number;
  disk?: {
    state: "unchanged" | "changed";
    changed_paths: Array<ChangedPathsItem>;
    changed_total: number;
    latest: string;
  };
};

/** A part several answers share. */
export type Coverage = {
  completeness: "complete" | "partial" | "unknown";
  exhaustive: boolean;
  gaps: Array<{
    reason: "dynamic_call" | "unresolved_import" | "declared_only_language" | "parse_error";
    site: {
      path: string;
      line: number;
      column: number;
    } | null;
    detail: string;
  }>;
};

/** A part several answers share. */
export type Truncation = {
  truncated: boolean;
  limits: {
    max_bytes: number;
    max_depth: number;
    max_items: number;
    max_nodes: number;
  };
  used: {
    bytes: number;
  };
  omissions: Array<{
    reason: "max_bytes" | "max_items" | "max_nodes" | "max_depth" | "limit";
    part: string;
    count: number;
    node_ids: Array<string>;
  }>;
  continuation: string | null;
};

/** A part several answers share. */
export type NodesItem = {
  id: string;
  kind: "module" | "function" | "class" | "method" | "variable" | "interface" | "type" | "enum";
  name: string;
  path: string;
  version: string;
};

/** A part several answers share. */
export type Start = {
  path: string;
  line: number;
  column: number;
};

/** A part several answers share. */
export type EdgesItem = {
  from: string;
  kind: "calls" | "references" | "imports" | "extends";
  to: string;
  layer: "declared" | "resolved";
  depth: number;
  site: Start;
};

/** A part several answers share. */
export type ProjectsItem = {
  id: string;
  slug: string;
  online: boolean;
  active: boolean;
};
