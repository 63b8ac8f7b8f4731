// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.
// Pure helpers: they encode JSON-RPC requests and decode responses; the host owns the streams.

export const JSONRPC_VERSION = '2.0';
export const METHODS = ["palimpsest_initialize_target","palimpsest_handle_upload","palimpsest_get_target","palimpsest_export_target","palimpsest_read_target","palimpsest_read_lines","palimpsest_find_occurrences","palimpsest_observe_scope","palimpsest_submit_observed_operations","palimpsest_submit_edits","palimpsest_submit_operations","palimpsest_submit_replacement","palimpsest_preview","palimpsest_save","palimpsest_replay","palimpsest_get_attempt_log","palimpsest_get_manifest_ledger","palimpsest_capabilities","palimpsest_workspace_refresh","palimpsest_workspace_status","grep","list_files","read_file","edit_file","write_file","run_command","start_command","get_command_output","send_command_input","kill_command","palimpsest_change_propose","palimpsest_edit_plan","palimpsest_change_inspect","palimpsest_check_run","palimpsest_change_apply","palimpsest_change_discard","palimpsest_search_targets","palimpsest_get_target_activity","palimpsest_changes_since","palimpsest_relocate_range","palimpsest_undo_attempt","palimpsest_undo_edit","palimpsest_list_sessions","palimpsest_session_activity","palimpsest_diff_versions","palimpsest_file_history","palimpsest_workspace_as_of","palimpsest_prove_event","palimpsest_prove_consistency"] as const;
export type Method = (typeof METHODS)[number];
export const READ_ONLY_METHODS: readonly Method[] = ["palimpsest_get_target","palimpsest_export_target","palimpsest_read_target","palimpsest_read_lines","palimpsest_find_occurrences","palimpsest_preview","palimpsest_replay","palimpsest_get_attempt_log","palimpsest_get_manifest_ledger","palimpsest_capabilities","palimpsest_workspace_status","grep","list_files","read_file","get_command_output","palimpsest_edit_plan","palimpsest_change_inspect","palimpsest_search_targets","palimpsest_get_target_activity","palimpsest_changes_since","palimpsest_relocate_range","palimpsest_list_sessions","palimpsest_session_activity","palimpsest_diff_versions","palimpsest_file_history","palimpsest_workspace_as_of","palimpsest_prove_event","palimpsest_prove_consistency"];

/** Initialize target: Create a target from text: LF content at version 0, a snapshot, an editing cycle, its source line endings recorded. */
export type InitializeTargetParams = {
  filename: string;
  content?: string | null;
  content_type?: string | null;
  project_id?: string | null;
  from_workspace?: boolean;
  publish?: "on_accept" | "on_save" | null;
};

/** Handle upload: Upload alias of palimpsest_initialize_target: content is required. */
export type HandleUploadParams = {
  filename: string;
  content: string | null;
  content_type?: string | null;
  project_id?: string | null;
  from_workspace?: boolean;
};

/** Get target: Current canonical content, hash, version, active editing cycle and source line endings of a target. */
export type GetTargetParams = {
  target_file_id: string;
  as_of?: {
    [extra: string]: unknown;
  };
};

/** Export target: Export the text with explicit line endings: original_text / canonical_lf (LF), crlf, or original_eol (the recorded uniform upload style). */
export type ExportTargetParams = {
  target_file_id: string;
  format?: string | null;
  as_of?: {
    [extra: string]: unknown;
  };
};

/** Read target slice: Authoritative bounded read by code-point offset (default 4,000, max 8,000 code points) with version, hash and next_start continuation. */
export type ReadTargetParams = {
  target_file_id: string;
  start?: number;
  length?: number | null;
  as_of?: {
    [extra: string]: unknown;
  };
};

/** Read lines: Bounded inclusive range of one-based LF lines. Pages by offset (relative to range_start, pass next_offset back) or next_start (absolute, for palimpsest_read_target). */
export type ReadLinesParams = {
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

/** Find occurrences: Exact occurrences of text (overlapping ones counted) in the current target, with bounded context and pagination. Indexes are valid for the first edit of a transaction. */
export type FindOccurrencesParams = {
  target_file_id: string;
  text: string;
  context_chars?: number;
  start_occurrence?: number;
  max_results?: number;
  as_of?: {
    [extra: string]: unknown;
  };
};

/** Observe a structural scope: Structural scopes (code symbols; Markdown sections, code blocks, table rows; YAML/JSON keys). No symbol_name: discovery (200 candidates at most, nothing recorded). symbol_name: one match is observed (observation_id, first page); none is SCOPE_NOT_FOUND, several AMBIGUOUS_SCOPE_SELECTION. observation_id pages a scope; selections observe 1-32 disjoint scopes. A save or an edit makes an observation stale. */
export type ObserveScopeParams = {
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

/** Submit operations bound to an observed scope: palimpsest_submit_operations bound to an observation_id, both guards required: changes stay inside the scope, insertions strictly inside (expected_before/after). Refusals are recorded (STALE_OBSERVATION_VERSION, OPERATION_OUTSIDE_OBSERVED_SCOPE, ...). Acceptance consumes the observation. Batch: observation_bundle_id, groups, client_request_id; one attempt. */
export type SubmitObservedOperationsParams = {
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

/** Submit typed edits (patchdiff-tx/1): Apply ordered exact-match edits atomically, each on the buffer the earlier ones left. Needs a version or hash guard, each checked under the row lock. */
export type SubmitEditsParams = {
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

/** Submit match/span operations (patchdiff-tx/2): Apply ordered match and code-point span operations atomically; order spans from one read by descending start. Needs a version or hash guard, each checked under the row lock. */
export type SubmitOperationsParams = {
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

/** Submit whole replacement (patchdiff-tx/3): Replace the whole text (runtime 0.4.0), at most 1,000,000 code points and 1,048,576 UTF-8 bytes. Needs a version or hash guard, each checked under the row lock. */
export type SubmitReplacementParams = {
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

/** Preview a proposal: Evaluate a proposal as submission would, on one read: no lock, no attempt row, no commit. Advisory: submission locks and checks again. A version or hash guard is required. */
export type PreviewParams = {
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

/** Save checkpoint: Snapshot the current target and rotate its editing cycle without changing the text. Optional guards: every supplied guard is checked; prefer the version guard. */
export type SaveParams = {
  target_file_id: string;
  expected_target_version?: number | null;
  expected_current_hash?: string | null;
  export_after_save?: boolean;
  sync_workspace?: boolean | null;
  workspace_eol_format?: string | null;
};

/** Replay target: Reconstruct the target from its initial snapshot and accepted attempts (by each recorded protocol and runtime) and compare with the materialized state. Reports divergence; never repairs. */
export type ReplayParams = {
  target_file_id: string;
};

/** Attempt log: Newest-first page of the attempt log (summaries), filterable by status, content hash or request key; then before_sequence = next_sequence. */
export type GetAttemptLogParams = {
  target_file_id: string;
  limit?: number | null;
  before_sequence?: number | null;
  status?: "accepted" | "rejected" | null;
  content_hash?: string | null;
  client_request_id?: string | null;
  include_content?: boolean;
  detail?: boolean;
};

/** Manifest ledger: Accepted changes, oldest-first within the newest page. By default only the active editing cycle; include_previous_cycles adds cycles closed by palimpsest_save. */
export type GetManifestLedgerParams = {
  target_file_id: string;
  include_previous_cycles?: boolean;
  limit?: number | null;
  before_sequence?: number | null;
};

/** Capabilities: The session manifest: callable operations and their error codes, limits, workspace root. */
export type CapabilitiesParams = {
  detail?: boolean;
};

/** Refresh from the workspace file: Take a drifted bound file's bytes into its target (an accepted replacement with source "external_disk") and move its baseline; in_sync if unchanged. Resolves a pending publication of the file. */
export type WorkspaceRefreshParams = {
  target_file_id: string;
  expected_target_version?: number | null;
  expected_current_hash?: string | null;
};

/** Workspace status: Bound files a page at a time in path order: in_sync, drifted, missing, pending (a journal open, or the target ahead) or unreachable (a path refusal, in code). */
export type WorkspaceStatusParams = {
  path_prefix?: string | null;
  state?: "in_sync" | "drifted" | "missing" | "pending" | "unreachable" | null;
  limit?: number | null;
  cursor?: string | null;
};

/** Search files: Search first: a JavaScript regular expression over the workspace's text files; each match is path, 1-based line and the line. Files as a recursive list_files, narrowed by glob; path may name one file. At most 200 matches: narrow the pattern rather than page. Past its time budget (1 s) it answers TOOL_TIMEOUT. */
export type GrepParams = {
  pattern: string;
  path?: string;
  glob?: string;
  caseInsensitive?: boolean;
  maxResults?: number;
};

/** List files: A directory's shape (the root by default). glob filters (**\/*.ts), recursive walks, respecting .gitignore and skipping .git and node_modules. Entries {path, type, size}, sorted, at most 1,000 (truncated: narrow path or glob). Links are listed, never entered; a file path lists that file alone. */
export type ListFilesParams = {
  path?: string;
  recursive?: boolean;
  glob?: string;
};

/** Read a file: Read a workspace file as UTF-8 text, as on disk (CRLF kept; pending: target text); grep first, read last. At most 500 KB of whole lines, with totalLines and truncated: continue with offset (1-based line). A path leaving the root is PATH_ESCAPE, a missing file PATH_NOT_FOUND; links are never followed. */
export type ReadFileParams = {
  path: string;
  offset?: number;
  limit?: number;
  as_of?: {
    [extra: string]: unknown;
  };
};

/** Edit a file (oldString exactly once): Replace the one place in an existing file where oldString matches exactly (matched on LF text; the file keeps its endings). No match or several: refused with ready edit_file calls (one per occurrence, or the closest text): send the one meant. Answers a unified diff: check it. A file changed on disk is never overwritten. An approval policy waits for an operator. FORBIDDEN, APPROVAL_DECLINED, APPROVAL_TIMEOUT are answers: say what was refused and stop. */
export type EditFileParams = {
  path: string;
  oldString: string;
  newString: string;
  near_line?: number;
  detail?: boolean;
};

/** Write a whole file: Create a file (parents made) or replace one whole; edit an existing file with edit_file. An existing file keeps its line endings and mode, a new one follows the umask; a file that appears or changes meanwhile is kept. Under an approval policy every write waits for an operator. FORBIDDEN, APPROVAL_DECLINED, APPROVAL_TIMEOUT are answers: say what was refused and stop. */
export type WriteFileParams = {
  path: string;
  content: string;
};

/** Run a command to its end: Run one command that finishes on its own (tests, a build, git status) at the project root, with stdin closed; answers stdout, stderr (the last 200 KB of each) and the exit code. Killed with everything it started after timeoutMs (60 s default, 300 s at most). Prefer one plain command to a chained one: shell syntax (;, &&, |, $(...), quotes) may be refused. FORBIDDEN and APPROVAL_DECLINED are answers: say what was refused and stop; never reshape the command or route around it. */
export type RunCommandParams = {
  command: string;
  cwd?: string;
  timeoutMs?: number;
};

/** Start a long-running command: Start a command that does not finish on its own (a dev server, a watcher, a REPL) at the project root; answers at once with a processId. Read it with get_command_output, answer it with send_command_input, and kill_command it once done: a project holds at most 8 live processes, so kill what you started. FORBIDDEN and APPROVAL_DECLINED are answers: say what was refused and stop; never reshape the command or route around it. */
export type StartCommandParams = {
  command: string;
  cwd?: string;
};

/** Read a started command's output: Read a started command's output (stdout and stderr as written) from cursor, at most 100 KB; pass nextCursor back next time. The last 256 KB are kept: skipped says the cursor was overtaken (skippedBytes, how much). waitMs waits (up to 30 s) for new output or the exit, so two calls usually suffice instead of a polling loop. */
export type GetCommandOutputParams = {
  processId: string;
  cursor?: number;
  waitMs?: number;
};

/** Send input to a started command: Write to a started command's stdin, exactly as given (a newline appended unless newline is false). Checked by the owner's policy like a command; under an allow list it is refused. FORBIDDEN and APPROVAL_DECLINED are answers: say what was refused and stop; never reshape the command or route around it. */
export type SendCommandInputParams = {
  processId: string;
  data: string;
  newline?: boolean;
};

/** Kill a started command and everything it started: Stop a started command and every process it started (SIGTERM, then SIGKILL within 2 s); answers once they are gone. killed is false when it had already ended. */
export type KillCommandParams = {
  processId: string;
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

export interface ParamsByMethod {
  palimpsest_initialize_target: InitializeTargetParams;
  palimpsest_handle_upload: HandleUploadParams;
  palimpsest_get_target: GetTargetParams;
  palimpsest_export_target: ExportTargetParams;
  palimpsest_read_target: ReadTargetParams;
  palimpsest_read_lines: ReadLinesParams;
  palimpsest_find_occurrences: FindOccurrencesParams;
  palimpsest_observe_scope: ObserveScopeParams;
  palimpsest_submit_observed_operations: SubmitObservedOperationsParams;
  palimpsest_submit_edits: SubmitEditsParams;
  palimpsest_submit_operations: SubmitOperationsParams;
  palimpsest_submit_replacement: SubmitReplacementParams;
  palimpsest_preview: PreviewParams;
  palimpsest_save: SaveParams;
  palimpsest_replay: ReplayParams;
  palimpsest_get_attempt_log: GetAttemptLogParams;
  palimpsest_get_manifest_ledger: GetManifestLedgerParams;
  palimpsest_capabilities: CapabilitiesParams;
  palimpsest_workspace_refresh: WorkspaceRefreshParams;
  palimpsest_workspace_status: WorkspaceStatusParams;
  grep: GrepParams;
  list_files: ListFilesParams;
  read_file: ReadFileParams;
  edit_file: EditFileParams;
  write_file: WriteFileParams;
  run_command: RunCommandParams;
  start_command: StartCommandParams;
  get_command_output: GetCommandOutputParams;
  send_command_input: SendCommandInputParams;
  kill_command: KillCommandParams;
  palimpsest_change_propose: ChangeProposeParams;
  palimpsest_edit_plan: EditPlanParams;
  palimpsest_change_inspect: ChangeInspectParams;
  palimpsest_check_run: CheckRunParams;
  palimpsest_change_apply: ChangeApplyParams;
  palimpsest_change_discard: ChangeDiscardParams;
  palimpsest_search_targets: SearchTargetsParams;
  palimpsest_get_target_activity: GetTargetActivityParams;
  palimpsest_changes_since: ChangesSinceParams;
  palimpsest_relocate_range: RelocateRangeParams;
  palimpsest_undo_attempt: UndoAttemptParams;
  palimpsest_undo_edit: UndoEditParams;
  palimpsest_list_sessions: ListSessionsParams;
  palimpsest_session_activity: SessionActivityParams;
  palimpsest_diff_versions: DiffVersionsParams;
  palimpsest_file_history: FileHistoryParams;
  palimpsest_workspace_as_of: WorkspaceAsOfParams;
  palimpsest_prove_event: ProveEventParams;
  palimpsest_prove_consistency: ProveConsistencyParams;
}

export interface Request<M extends Method> { jsonrpc: '2.0'; id: number | string; method: M; params: ParamsByMethod[M] }
export type Result = { status: string; [field: string]: unknown };
export type Response =
  | { ok: true; id: number | string; result: Result }
  | { ok: false; id: number | string | null; error: { code: number; message: string; data?: unknown } };

export function request<M extends Method>(id: number | string, method: M, params: ParamsByMethod[M]): Request<M> {
  if (!METHODS.includes(method)) throw new TypeError(`unknown method ${String(method)}`);
  return { jsonrpc: '2.0', id, method, params };
}

/** One NDJSON line for `palimpsest serve`: ASCII-escaped so no line separator can split it. */
export function encodeRequest<M extends Method>(req: Request<M>): string {
  return `${JSON.stringify(req).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

export function decodeResponse(line: string): Response {
  const msg = JSON.parse(line) as Record<string, any>;
  if (msg.jsonrpc !== '2.0') throw new TypeError('not a JSON-RPC 2.0 response');
  if (msg.error) return { ok: false, id: msg.id ?? null, error: msg.error };
  if (!msg.result || typeof msg.result.status !== 'string') throw new TypeError('result without status');
  return { ok: true, id: msg.id, result: msg.result };
}
