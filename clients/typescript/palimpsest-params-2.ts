// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.

/** Send input to a started command: Write to a started command's stdin, exactly as given (a newline appended unless newline is false). Checked by the owner's policy like a command; under an allow list it is refused. FORBIDDEN and APPROVAL_DECLINED are answers: say what was refused and stop; never reshape the command or route around it. */
export type SendCommandInputParams = {
  processId: string;
  data: string;
  newline?: boolean;
  project?: string;
  client_request_id?: string;
};

/** Kill a started command and everything it started: Stop a started command and every process it started (SIGTERM, then SIGKILL within 2 s); answers once they are gone. killed is false when it had already ended. */
export type KillCommandParams = {
  processId: string;
  project?: string;
  client_request_id?: string;
};

/** Propose a candidate change: Stage operations on a private candidate over one or more targets; none changes before palimpsest_change_apply. candidate + expected_candidate_version extend an open one. */
export type ChangeProposeParams = {
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

/** Plan a change (dry run): Dry run of palimpsest_change_propose, same rules: the outcome of each operation, the targets it would change, the checks an apply would need. Stores nothing. */
export type EditPlanParams = {
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

/** Inspect a candidate: What a candidate changes, per target: changed spans with their text before and after and the operations behind each, a unified diff with bounded hunks, full content on request, and its checks. */
export type ChangeInspectParams = {
  candidate: string;
  include?: Array<"semantic_diff" | "source_diff" | "content" | "checks">;
  targets?: Array<string>;
  context_lines?: number;
};

/** Run checks on a candidate: Run and record checks on the candidate's current version: utf8, json and yaml by content type, and the operator's declared commands (in a temporary directory, timed, output bounded). A failed check is ok: false, never an error. */
export type CheckRunParams = {
  candidate: string;
  checks: Array<string>;
};

/** Apply a candidate: Write the candidate to every target it changes, atomically, with a receipt; if a written target moved, nothing is written. Bound files are published through one journal (a file edited on disk: precondition_failed external_write); the same request_id reconciles and applies once. Under an approve policy it waits for an operator (APPROVAL_DECLINED, APPROVAL_TIMEOUT are answers; the same request_id resumes). */
export type ChangeApplyParams = {
  candidate: string;
  expected_candidate_version: number;
  request_id: string;
  require_checks?: Array<string>;
};

/** Discard a candidate: Close an open candidate. It never undoes an applied change: to undo, propose a compensating change. */
export type ChangeDiscardParams = {
  candidate: string;
  expected_candidate_version?: number;
};

/** Search targets: Full-text search over every target's current text, filename, workspace path and accepted intents, best first, with a short snippet ([[match]]). Asynchronous index: see projection. */
export type SearchTargetsParams = {
  query: string;
  limit?: number | null;
  offset?: number | null;
  min_position?: number | null;
  max_wait_ms?: number | null;
};

/** Target activity: Attempts in a time window, of one target or all: by status, failure reason and source, acceptance rate, retries per acceptance, and a series. Asynchronous: see projection. */
export type GetTargetActivityParams = {
  target_file_id?: string | null;
  window_minutes?: number | null;
  until?: string | null;
  min_position?: number | null;
  max_wait_ms?: number | null;
};

/** Changes since a version or position: The accepted changes after a point, oldest first: each attempt with its version, time, source and effects (code-point range of the text before it, and the text inserted, bounded). One target from a version or a log position, or with no target every workspace file from a position. Paged: pass next_position as from_position. */
export type ChangesSinceParams = {
  target_file_id?: string | null;
  from_version?: number | null;
  from_position?: number | null;
  limit?: number | null;
  max_inserted_code_points?: number | null;
  min_position?: number | null;
};

/** Relocate a range to the current version: Where a code-point range read at one version is now: moved (same text, new offsets), unchanged, rewritten (an accepted change touched it: the range spans what replaced it) or deleted, with the attempts that touched it. Give target, version, start and end, or an observation_id (its scope and version). */
export type RelocateRangeParams = {
  target_file_id?: string | null;
  version?: number | null;
  start?: number | null;
  end?: number | null;
  observation_id?: string | null;
};

/** Undo an accepted attempt: Apply the inverse of an accepted attempt as a new guarded change (source undo; a bound file is published like any write). Refused, and recorded, when a later attempt touched its ranges: the answer names them and offers palimpsest_changes_since. An undo is an attempt too: undo it to redo. */
export type UndoAttemptParams = {
  target_file_id: string;
  attempt_id: string;
  client_request_id?: string | null;
};

/** Undo an edit of a file: palimpsest_undo_attempt for a workspace file, by path: the inverse of the accepted attempt (attempt_id of edit_file or write_file) written to the file through its journal. Refused when a later change touched the same text. */
export type UndoEditParams = {
  path: string;
  attempt_id: string;
};

/** Recent client sessions: Client sessions that edited or ran commands, the most recently active first: correlation id, edit and command-run counts, first and last time. Paged: pass next_before_position back as before_position. */
export type ListSessionsParams = {
  before_position?: number | null;
  limit?: number | null;
};

/** One session's edits and command runs: What one client session did, in log order: each edit (path, attempt, accepted or rejected) and each command run (command, run id, exit code, signal or refusal), with times. Paged: pass next_after_position back as after_position. */
export type SessionActivityParams = {
  correlation_id: string;
  after_position?: number | null;
  limit?: number | null;
};

/** Diff versions: Unified diff between two points (to: now by default): hunks with lines and code-point spans, and the attempts between. Paged. */
export type DiffVersionsParams = {
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

/** File history: A workspace file's versions, newest first: attempt, source, time, size (read one: read_file as_of). Paged. */
export type FileHistoryParams = {
  path: string;
  before_version?: number | null;
  limit?: number | null;
  min_position?: number | null;
};

/** Workspace as of: Every bound file's version at one log position or time, in path order. Paged. */
export type WorkspaceAsOfParams = {
  as_of: {
    [extra: string]: unknown;
  };
  limit?: number | null;
  cursor?: string | null;
};

/** Prove an event is in the log: The audit path (RFC 9162) of the event at a global position to a signed checkpoint of the log: hash the leaf up the path and compare with the checkpoint's root. not_found while no checkpoint covers it yet. */
export type ProveEventParams = {
  global_position: number;
  checkpoint_size?: number | null;
};

/** Prove two checkpoints agree: The consistency proof (RFC 9162) that the log at one signed checkpoint is a prefix of the log at a later one: nothing it held was changed, removed or reordered. */
export type ProveConsistencyParams = {
  first_size?: number | null;
  second_size?: number | null;
};

/** Open a snapshot: Capture the workspace files (latest) or reopen a snapshot: its sha256: handle (same content, same handle), log position, disk changes since. Writes no file; a read-only session records nothing (held). */
export type OpenSnapshotParams = {
  snapshot?: string;
};

/** Snapshot status: The disk against the newest snapshot (unchanged, changed: paths, no_snapshot), the handle of the disk now, the snapshots newest first. */
export type SnapshotStatusParams = {
  limit?: number | null;
};

/** Read a file of a snapshot: A file as a snapshot holds it (from the log), as read_file reads; snapshot.disk names the paths changed on disk since. */
export type ReadSnapshotFileParams = {
  snapshot: string;
  path: string;
  offset?: number;
  limit?: number;
};

/** Find code nodes: Code declarations (TS/JS/Python) by name and kind, in path order, with versions. */
export type NodeFindParams = {
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

/** Get code nodes: Code nodes by id: signature, range, version (changes with the text: a guard). */
export type NodeGetParams = {
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

/** Query the code graph: What code nodes use, or what uses them: edges with kind, layer (declared/resolved) and site; coverage says what is proven. */
export type GraphQueryParams = {
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

/** Build code context: A bounded slice of code for a task: the focus with its text, callers, callees and tests by purpose. Required items are never cut (insufficient_context). */
export type ContextBuildParams = {
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

/** Analyze impact: What depends on code nodes, transitively (limits.max_depth), with the test files that reach it. */
export type ImpactAnalyzeParams = {
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

/** List projects: Projects of the connected executors: slug, id, online, and which is active for this client. Choose with set_active_project, or pass project to one call. */
export type ListProjectsParams = Record<string, never>;
