// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.
import type { InitializeTargetParams, HandleUploadParams, GetTargetParams, ExportTargetParams, ReadTargetParams, ReadLinesParams, FindOccurrencesParams, ObserveScopeParams, SubmitObservedOperationsParams, SubmitEditsParams, SubmitOperationsParams, SubmitReplacementParams, PreviewParams, SaveParams, ReplayParams, GetAttemptLogParams, GetManifestLedgerParams, CapabilitiesParams, WorkspaceRefreshParams, WorkspaceStatusParams, GrepParams, ListFilesParams, ReadFileParams, EditFileParams, WriteFileParams, RunCommandParams, StartCommandParams, GetCommandOutputParams, SendCommandInputParams, KillCommandParams } from './palimpsest-params-1';
import type { ChangeProposeParams, EditPlanParams, ChangeInspectParams, CheckRunParams, ChangeApplyParams, ChangeDiscardParams, SearchTargetsParams, GetTargetActivityParams, ChangesSinceParams, RelocateRangeParams, UndoAttemptParams, UndoEditParams, ListSessionsParams, SessionActivityParams, DiffVersionsParams, FileHistoryParams, WorkspaceAsOfParams, ProveEventParams, ProveConsistencyParams } from './palimpsest-params-2';
export type * from './palimpsest-params-1';
export type * from './palimpsest-params-2';

/** The params of each method, as its params schema describes them. */
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
