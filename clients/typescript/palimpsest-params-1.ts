// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.

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
  min_position?: number | null;
};

/** Manifest ledger: Accepted changes, oldest-first within the newest page. By default only the active editing cycle; include_previous_cycles adds cycles closed by palimpsest_save. */
export type GetManifestLedgerParams = {
  target_file_id: string;
  include_previous_cycles?: boolean;
  limit?: number | null;
  before_sequence?: number | null;
  min_position?: number | null;
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
  project?: string;
};

/** List files: A directory's shape (the root by default). glob filters (**\/*.ts), recursive walks, respecting .gitignore and skipping .git and node_modules. Entries {path, type, size}, sorted, at most 1,000 (truncated: narrow path or glob). Links are listed, never entered; a file path lists that file alone. */
export type ListFilesParams = {
  path?: string;
  recursive?: boolean;
  glob?: string;
  project?: string;
};

/** Read a file: Read a workspace file as UTF-8 text, as on disk (CRLF kept; pending: target text); grep first, read last. At most 500 KB of whole lines, with totalLines and truncated: continue with offset (1-based line). A path leaving the root is PATH_ESCAPE, a missing file PATH_NOT_FOUND; links are never followed. */
export type ReadFileParams = {
  path: string;
  offset?: number;
  limit?: number;
  as_of?: {
    [extra: string]: unknown;
  };
  project?: string;
};

/** Edit a file (oldString exactly once): Replace the one place in an existing file where oldString matches exactly (matched on LF text; the file keeps its endings). No match or several: refused with ready edit_file calls (one per occurrence, or the closest text): send the one meant. Answers a unified diff: check it. A file changed on disk is never overwritten. An approval policy waits for an operator. FORBIDDEN, APPROVAL_DECLINED, APPROVAL_TIMEOUT are answers: say what was refused and stop. */
export type EditFileParams = {
  path: string;
  oldString: string;
  newString: string;
  near_line?: number;
  detail?: boolean;
  project?: string;
  client_request_id?: string;
};

/** Write a whole file: Create a file (parents made) or replace one whole; edit an existing file with edit_file. An existing file keeps its line endings and mode, a new one follows the umask; a file that appears or changes meanwhile is kept. Under an approval policy every write waits for an operator. FORBIDDEN, APPROVAL_DECLINED, APPROVAL_TIMEOUT are answers: say what was refused and stop. */
export type WriteFileParams = {
  path: string;
  content: string;
  project?: string;
  client_request_id?: string;
};

/** Run a command to its end: Run one command that finishes on its own (tests, a build, git status) at the project root, with stdin closed; answers stdout, stderr (the last 200 KB of each) and the exit code. Killed with everything it started after timeoutMs (60 s default, 300 s at most). Prefer one plain command to a chained one: shell syntax (;, &&, |, $(...), quotes) may be refused. FORBIDDEN and APPROVAL_DECLINED are answers: say what was refused and stop; never reshape the command or route around it. */
export type RunCommandParams = {
  command: string;
  cwd?: string;
  timeoutMs?: number;
  project?: string;
  client_request_id?: string;
};

/** Start a long-running command: Start a command that does not finish on its own (a dev server, a watcher, a REPL) at the project root; answers at once with a processId. Read it with get_command_output, answer it with send_command_input, and kill_command it once done: a project holds at most 8 live processes, so kill what you started. FORBIDDEN and APPROVAL_DECLINED are answers: say what was refused and stop; never reshape the command or route around it. */
export type StartCommandParams = {
  command: string;
  cwd?: string;
  project?: string;
  client_request_id?: string;
};

/** Read a started command's output: Read a started command's output (stdout and stderr as written) from cursor, at most 100 KB; pass nextCursor back next time. The last 256 KB are kept: skipped says the cursor was overtaken (skippedBytes, how much). waitMs waits (up to 30 s) for new output or the exit, so two calls usually suffice instead of a polling loop. */
export type GetCommandOutputParams = {
  processId: string;
  cursor?: number;
  waitMs?: number;
  project?: string;
};
