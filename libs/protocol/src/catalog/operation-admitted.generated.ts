// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.
import type { OperationParams } from './operation-params.generated';

/** The arguments a handler receives after admission. */
export interface OperationAdmitted {
  palimpsest_initialize_target: OperationParams['palimpsest_initialize_target'];
  palimpsest_handle_upload: OperationParams['palimpsest_handle_upload'];
  palimpsest_get_target: OperationParams['palimpsest_get_target'];
  palimpsest_export_target: OperationParams['palimpsest_export_target'];
  palimpsest_read_target: OperationParams['palimpsest_read_target'];
  palimpsest_read_lines: OperationParams['palimpsest_read_lines'];
  palimpsest_find_occurrences: OperationParams['palimpsest_find_occurrences'];
  palimpsest_observe_scope: OperationParams['palimpsest_observe_scope'];
  palimpsest_submit_observed_operations: {
    target_file_id: string;
    intent?: unknown;
    expected_target_version?: unknown;
    expected_current_hash?: unknown;
    source?: unknown;
    parent_attempt_id?: unknown;
    attempt?: unknown;
    client_request_id?: unknown;
    include_correlation_id?: boolean;
    observation_id?: unknown;
    operations?: unknown;
    observation_bundle_id?: unknown;
    groups?: unknown;
  };
  palimpsest_submit_edits: {
    target_file_id: string;
    intent?: unknown;
    expected_target_version?: unknown;
    expected_current_hash?: unknown;
    source?: unknown;
    parent_attempt_id?: unknown;
    attempt?: unknown;
    client_request_id?: unknown;
    include_correlation_id?: boolean;
    edits?: unknown;
  };
  palimpsest_submit_operations: {
    target_file_id: string;
    intent?: unknown;
    expected_target_version?: unknown;
    expected_current_hash?: unknown;
    source?: unknown;
    parent_attempt_id?: unknown;
    attempt?: unknown;
    client_request_id?: unknown;
    include_correlation_id?: boolean;
    operations?: unknown;
  };
  palimpsest_submit_replacement: {
    target_file_id: string;
    intent?: unknown;
    expected_target_version?: unknown;
    expected_current_hash?: unknown;
    source?: unknown;
    parent_attempt_id?: unknown;
    attempt?: unknown;
    client_request_id?: unknown;
    include_correlation_id?: boolean;
    replacement?: unknown;
  };
  palimpsest_preview: {
    target_file_id: string;
    format: "patchdiff-tx/1" | "patchdiff-tx/2" | "patchdiff-tx/3";
    expected_target_version?: unknown;
    expected_current_hash?: unknown;
    intent?: unknown;
    edits?: unknown;
    operations?: unknown;
    replacement?: unknown;
  };
  palimpsest_save: {
    target_file_id: string;
    expected_target_version?: unknown;
    expected_current_hash?: unknown;
    export_after_save?: boolean;
    sync_workspace?: boolean | null;
    workspace_eol_format?: string | null;
  };
  palimpsest_replay: OperationParams['palimpsest_replay'];
  palimpsest_get_attempt_log: OperationParams['palimpsest_get_attempt_log'];
  palimpsest_get_manifest_ledger: OperationParams['palimpsest_get_manifest_ledger'];
  palimpsest_capabilities: OperationParams['palimpsest_capabilities'];
  palimpsest_workspace_refresh: OperationParams['palimpsest_workspace_refresh'];
  palimpsest_workspace_status: OperationParams['palimpsest_workspace_status'];
  grep: OperationParams['grep'];
  list_files: OperationParams['list_files'];
  read_file: OperationParams['read_file'];
  edit_file: OperationParams['edit_file'];
  write_file: OperationParams['write_file'];
  run_command: OperationParams['run_command'];
  start_command: OperationParams['start_command'];
  get_command_output: OperationParams['get_command_output'];
  send_command_input: OperationParams['send_command_input'];
  kill_command: OperationParams['kill_command'];
  palimpsest_change_propose: OperationParams['palimpsest_change_propose'];
  palimpsest_edit_plan: OperationParams['palimpsest_edit_plan'];
  palimpsest_change_inspect: OperationParams['palimpsest_change_inspect'];
  palimpsest_check_run: OperationParams['palimpsest_check_run'];
  palimpsest_change_apply: OperationParams['palimpsest_change_apply'];
  palimpsest_change_discard: OperationParams['palimpsest_change_discard'];
  palimpsest_search_targets: OperationParams['palimpsest_search_targets'];
  palimpsest_get_target_activity: OperationParams['palimpsest_get_target_activity'];
  palimpsest_prove_event: OperationParams['palimpsest_prove_event'];
  palimpsest_prove_consistency: OperationParams['palimpsest_prove_consistency'];
}
