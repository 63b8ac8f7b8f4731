// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.
import type { InitializeTargetAnswer, SubmitEditsAnswer } from './palimpsest-answer-parts';
import type { HandleUploadAnswer, GetTargetAnswer, ExportTargetAnswer, ReadTargetAnswer, ReadLinesAnswer, FindOccurrencesAnswer, ObserveScopeAnswer, SubmitObservedOperationsAnswer, SubmitOperationsAnswer, SubmitReplacementAnswer, PreviewAnswer, SaveAnswer, ReplayAnswer, GetAttemptLogAnswer, GetManifestLedgerAnswer, CapabilitiesAnswer, WorkspaceRefreshAnswer } from './palimpsest-answers-1';
import type { WorkspaceStatusAnswer, GrepAnswer, ListFilesAnswer, ReadFileAnswer, EditFileAnswer, WriteFileAnswer, RunCommandAnswer, StartCommandAnswer, GetCommandOutputAnswer, SendCommandInputAnswer, KillCommandAnswer, ChangeProposeAnswer, EditPlanAnswer, ChangeInspectAnswer, CheckRunAnswer, ChangeApplyAnswer, ChangeDiscardAnswer, SearchTargetsAnswer, GetTargetActivityAnswer, ChangesSinceAnswer } from './palimpsest-answers-2';
import type { RelocateRangeAnswer, UndoAttemptAnswer, UndoEditAnswer, ListSessionsAnswer, SessionActivityAnswer, DiffVersionsAnswer, FileHistoryAnswer, WorkspaceAsOfAnswer, ProveEventAnswer, ProveConsistencyAnswer, OpenSnapshotAnswer, SnapshotStatusAnswer, ReadSnapshotFileAnswer, NodeFindAnswer, NodeGetAnswer, GraphQueryAnswer, ContextBuildAnswer, ImpactAnalyzeAnswer, ListProjectsAnswer, GetActiveProjectAnswer, SetActiveProjectAnswer } from './palimpsest-answers-3';

export type * from './palimpsest-answer-parts';
export type * from './palimpsest-answers-1';
export type * from './palimpsest-answers-2';
export type * from './palimpsest-answers-3';

/** What a success of each method carries, field by field. */
export interface AnswersByMethod {
  palimpsest_initialize_target: InitializeTargetAnswer;
  palimpsest_handle_upload: HandleUploadAnswer;
  palimpsest_get_target: GetTargetAnswer;
  palimpsest_export_target: ExportTargetAnswer;
  palimpsest_read_target: ReadTargetAnswer;
  palimpsest_read_lines: ReadLinesAnswer;
  palimpsest_find_occurrences: FindOccurrencesAnswer;
  palimpsest_observe_scope: ObserveScopeAnswer;
  palimpsest_submit_observed_operations: SubmitObservedOperationsAnswer;
  palimpsest_submit_edits: SubmitEditsAnswer;
  palimpsest_submit_operations: SubmitOperationsAnswer;
  palimpsest_submit_replacement: SubmitReplacementAnswer;
  palimpsest_preview: PreviewAnswer;
  palimpsest_save: SaveAnswer;
  palimpsest_replay: ReplayAnswer;
  palimpsest_get_attempt_log: GetAttemptLogAnswer;
  palimpsest_get_manifest_ledger: GetManifestLedgerAnswer;
  palimpsest_capabilities: CapabilitiesAnswer;
  palimpsest_workspace_refresh: WorkspaceRefreshAnswer;
  palimpsest_workspace_status: WorkspaceStatusAnswer;
  grep: GrepAnswer;
  list_files: ListFilesAnswer;
  read_file: ReadFileAnswer;
  edit_file: EditFileAnswer;
  write_file: WriteFileAnswer;
  run_command: RunCommandAnswer;
  start_command: StartCommandAnswer;
  get_command_output: GetCommandOutputAnswer;
  send_command_input: SendCommandInputAnswer;
  kill_command: KillCommandAnswer;
  palimpsest_change_propose: ChangeProposeAnswer;
  palimpsest_edit_plan: EditPlanAnswer;
  palimpsest_change_inspect: ChangeInspectAnswer;
  palimpsest_check_run: CheckRunAnswer;
  palimpsest_change_apply: ChangeApplyAnswer;
  palimpsest_change_discard: ChangeDiscardAnswer;
  palimpsest_search_targets: SearchTargetsAnswer;
  palimpsest_get_target_activity: GetTargetActivityAnswer;
  palimpsest_changes_since: ChangesSinceAnswer;
  palimpsest_relocate_range: RelocateRangeAnswer;
  palimpsest_undo_attempt: UndoAttemptAnswer;
  palimpsest_undo_edit: UndoEditAnswer;
  palimpsest_list_sessions: ListSessionsAnswer;
  palimpsest_session_activity: SessionActivityAnswer;
  palimpsest_diff_versions: DiffVersionsAnswer;
  palimpsest_file_history: FileHistoryAnswer;
  palimpsest_workspace_as_of: WorkspaceAsOfAnswer;
  palimpsest_prove_event: ProveEventAnswer;
  palimpsest_prove_consistency: ProveConsistencyAnswer;
  palimpsest_open_snapshot: OpenSnapshotAnswer;
  palimpsest_snapshot_status: SnapshotStatusAnswer;
  palimpsest_read_snapshot_file: ReadSnapshotFileAnswer;
  palimpsest_node_find: NodeFindAnswer;
  palimpsest_node_get: NodeGetAnswer;
  palimpsest_graph_query: GraphQueryAnswer;
  palimpsest_context_build: ContextBuildAnswer;
  palimpsest_impact_analyze: ImpactAnalyzeAnswer;
  list_projects: ListProjectsAnswer;
  get_active_project: GetActiveProjectAnswer;
  set_active_project: SetActiveProjectAnswer;
}

import type { Method } from './palimpsest-client';
import type { ParamsByMethod } from './palimpsest-params';

/** A call to make next: a method and its complete params. */
export type NextAction = { [M in Method]: { operation: M; reason: string; params: ParamsByMethod[M] } }[Method];

/** What was cut from an answer to keep it within its byte budget. */
export type TruncatedFields = Array<{
  path: string;
  returned: number;
  total: number;
}>;

/** What any answer may carry beside its fields: what was cut from it, and the calls to make next. */
export type AnswerNotes = { result_truncated?: TruncatedFields; next_actions?: NextAction[] };

/** What a refusal may carry beside its status: its code, why, what to do next, and the details it names. */
export type RefusalFields = {
  code?: string;
  failure_reason?: string;
  failure_detail?: string;
  retryable?: "none" | "same_request" | "after_refresh";
  diagnostic?: Record<string, unknown> | null;
  next_actions?: Array<NextAction>;
  error?: {
    code: string;
    reason: string;
    message: string;
    retryable: "none" | "same_request" | "after_refresh";
    next_actions: Array<NextAction>;
    operation_index?: number;
    target?: Record<string, unknown>;
    details?: Record<string, unknown>;
  };
  argument?: string;
  tool?: string;
  unknown_arguments?: Array<string>;
  missing_arguments?: Array<string>;
  errors?: Array<{
    path: string;
    message: string;
  }>;
  policy?: string | null;
  detail?: string;
  answer?: string;
  range_length?: number;
  total_lines?: number;
  totalLines?: number;
  total_chars?: number;
  size?: number;
  limit?: number;
  budget_ms?: number;
  limit_exceeded?: string;
  actual?: number;
  allowed_formats?: Array<string>;
  selection_index?: number | null;
  target_file_id?: string | null;
  path?: string;
  component?: number;
  current_version?: number;
  current_hash?: string;
  observation_id?: string | null;
  bundle_id?: string | null;
  observed_version?: number;
  observed_hash?: string;
  bound_root?: {
    dev: string | number;
    ino: string | number;
  };
  configured_root?: {
    dev: string | number;
    ino: string | number;
    path?: string;
  };
  attempt_id?: string | null;
  approval_id?: string | null;
  failed_change_id?: string | null;
  before_hash?: string;
  after_hash?: null;
  log_sequence?: number | null;
  current_context?: Record<string, unknown>;
  deduplicated?: boolean;
  client_request_id?: string | null;
  correlation_id?: string;
  rule?: string;
  runId?: string;
  match_count?: number;
  match_lines?: Array<number>;
  near_miss_lines?: Array<number>;
  near_misses?: Array<{
    line: number;
    distance: number;
    text: string;
  }>;
  preview?: true;
  advisory?: true;
  workspace_sync?: {
    journal?: {
      id: string;
      state: string;
    };
  };
  journal?: {
    id: string;
    state: string;
  };
  snapshot_id?: string | null;
  closed_editing_cycle_id?: string | null;
  new_editing_cycle_id?: string | null;
  validity?: Record<string, unknown>;
  result_truncated?: TruncatedFields;
};

/** An answer other than a success: one of the statuses of its result schema that a success does not answer with. */
export type Refusal<S extends string = string> = { status: S } & RefusalFields;
