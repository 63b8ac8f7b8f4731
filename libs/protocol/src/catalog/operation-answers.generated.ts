// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.
import type { InitializeTargetAnswer, SubmitEditsAnswer } from './operation-answer-parts.generated';
import type { HandleUploadAnswer, GetTargetAnswer, ExportTargetAnswer, ReadTargetAnswer, ReadLinesAnswer, FindOccurrencesAnswer, ObserveScopeAnswer, SubmitObservedOperationsAnswer, SubmitOperationsAnswer, SubmitReplacementAnswer, PreviewAnswer, SaveAnswer, ReplayAnswer, GetAttemptLogAnswer, GetManifestLedgerAnswer, CapabilitiesAnswer, WorkspaceRefreshAnswer } from './operation-answers-1.generated';
import type { WorkspaceStatusAnswer, GrepAnswer, ListFilesAnswer, ReadFileAnswer, EditFileAnswer, WriteFileAnswer, RunCommandAnswer, StartCommandAnswer, GetCommandOutputAnswer, SendCommandInputAnswer, KillCommandAnswer, ChangeProposeAnswer, EditPlanAnswer, ChangeInspectAnswer, CheckRunAnswer, ChangeApplyAnswer, ChangeDiscardAnswer, SearchTargetsAnswer, GetTargetActivityAnswer, ChangesSinceAnswer } from './operation-answers-2.generated';
import type { RelocateRangeAnswer, UndoAttemptAnswer, UndoEditAnswer, ListSessionsAnswer, SessionActivityAnswer, DiffVersionsAnswer, FileHistoryAnswer, WorkspaceAsOfAnswer, ProveEventAnswer, ProveConsistencyAnswer } from './operation-answers-3.generated';

export type * from './operation-answer-parts.generated';
export type * from './operation-answers-1.generated';
export type * from './operation-answers-2.generated';
export type * from './operation-answers-3.generated';

/** What each success carries, field by field, as ANSWER_SCHEMAS describes it (answer-schemas.ts). */
export interface OperationAnswers {
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
}
