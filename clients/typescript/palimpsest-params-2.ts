// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.

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
