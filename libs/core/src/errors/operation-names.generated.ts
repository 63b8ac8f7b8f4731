// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.
import type { CatalogOperation } from './error-model';

/** Every operation name, typed: `OP.grep` in values, `OP.grep` in types. A renamed or removed operation fails the type check where it is named. */
export const OP = {
  palimpsest_initialize_target: 'palimpsest_initialize_target',
  palimpsest_handle_upload: 'palimpsest_handle_upload',
  palimpsest_get_target: 'palimpsest_get_target',
  palimpsest_export_target: 'palimpsest_export_target',
  palimpsest_read_target: 'palimpsest_read_target',
  palimpsest_read_lines: 'palimpsest_read_lines',
  palimpsest_find_occurrences: 'palimpsest_find_occurrences',
  palimpsest_observe_scope: 'palimpsest_observe_scope',
  palimpsest_submit_observed_operations: 'palimpsest_submit_observed_operations',
  palimpsest_submit_edits: 'palimpsest_submit_edits',
  palimpsest_submit_operations: 'palimpsest_submit_operations',
  palimpsest_submit_replacement: 'palimpsest_submit_replacement',
  palimpsest_preview: 'palimpsest_preview',
  palimpsest_save: 'palimpsest_save',
  palimpsest_replay: 'palimpsest_replay',
  palimpsest_get_attempt_log: 'palimpsest_get_attempt_log',
  palimpsest_get_manifest_ledger: 'palimpsest_get_manifest_ledger',
  palimpsest_capabilities: 'palimpsest_capabilities',
  palimpsest_workspace_refresh: 'palimpsest_workspace_refresh',
  palimpsest_workspace_status: 'palimpsest_workspace_status',
  grep: 'grep',
  list_files: 'list_files',
  read_file: 'read_file',
  edit_file: 'edit_file',
  write_file: 'write_file',
  run_command: 'run_command',
  start_command: 'start_command',
  get_command_output: 'get_command_output',
  send_command_input: 'send_command_input',
  kill_command: 'kill_command',
  palimpsest_change_propose: 'palimpsest_change_propose',
  palimpsest_edit_plan: 'palimpsest_edit_plan',
  palimpsest_change_inspect: 'palimpsest_change_inspect',
  palimpsest_check_run: 'palimpsest_check_run',
  palimpsest_change_apply: 'palimpsest_change_apply',
  palimpsest_change_discard: 'palimpsest_change_discard',
  palimpsest_search_targets: 'palimpsest_search_targets',
  palimpsest_get_target_activity: 'palimpsest_get_target_activity',
  palimpsest_changes_since: 'palimpsest_changes_since',
  palimpsest_relocate_range: 'palimpsest_relocate_range',
  palimpsest_undo_attempt: 'palimpsest_undo_attempt',
  palimpsest_undo_edit: 'palimpsest_undo_edit',
  palimpsest_list_sessions: 'palimpsest_list_sessions',
  palimpsest_session_activity: 'palimpsest_session_activity',
  palimpsest_diff_versions: 'palimpsest_diff_versions',
  palimpsest_file_history: 'palimpsest_file_history',
  palimpsest_workspace_as_of: 'palimpsest_workspace_as_of',
  palimpsest_prove_event: 'palimpsest_prove_event',
  palimpsest_prove_consistency: 'palimpsest_prove_consistency',
  palimpsest_open_snapshot: 'palimpsest_open_snapshot',
  palimpsest_snapshot_status: 'palimpsest_snapshot_status',
  palimpsest_read_snapshot_file: 'palimpsest_read_snapshot_file',
  palimpsest_node_find: 'palimpsest_node_find',
  palimpsest_node_get: 'palimpsest_node_get',
  palimpsest_graph_query: 'palimpsest_graph_query',
  palimpsest_context_build: 'palimpsest_context_build',
  palimpsest_impact_analyze: 'palimpsest_impact_analyze',
  list_projects: 'list_projects',
  get_active_project: 'get_active_project',
  set_active_project: 'set_active_project',
} as const satisfies { readonly [N in CatalogOperation]: N };

/** The same names as types (declarations only: it merges with the constant). */
export declare namespace OP {
  export type palimpsest_initialize_target = 'palimpsest_initialize_target';
  export type palimpsest_handle_upload = 'palimpsest_handle_upload';
  export type palimpsest_get_target = 'palimpsest_get_target';
  export type palimpsest_export_target = 'palimpsest_export_target';
  export type palimpsest_read_target = 'palimpsest_read_target';
  export type palimpsest_read_lines = 'palimpsest_read_lines';
  export type palimpsest_find_occurrences = 'palimpsest_find_occurrences';
  export type palimpsest_observe_scope = 'palimpsest_observe_scope';
  export type palimpsest_submit_observed_operations = 'palimpsest_submit_observed_operations';
  export type palimpsest_submit_edits = 'palimpsest_submit_edits';
  export type palimpsest_submit_operations = 'palimpsest_submit_operations';
  export type palimpsest_submit_replacement = 'palimpsest_submit_replacement';
  export type palimpsest_preview = 'palimpsest_preview';
  export type palimpsest_save = 'palimpsest_save';
  export type palimpsest_replay = 'palimpsest_replay';
  export type palimpsest_get_attempt_log = 'palimpsest_get_attempt_log';
  export type palimpsest_get_manifest_ledger = 'palimpsest_get_manifest_ledger';
  export type palimpsest_capabilities = 'palimpsest_capabilities';
  export type palimpsest_workspace_refresh = 'palimpsest_workspace_refresh';
  export type palimpsest_workspace_status = 'palimpsest_workspace_status';
  export type grep = 'grep';
  export type list_files = 'list_files';
  export type read_file = 'read_file';
  export type edit_file = 'edit_file';
  export type write_file = 'write_file';
  export type run_command = 'run_command';
  export type start_command = 'start_command';
  export type get_command_output = 'get_command_output';
  export type send_command_input = 'send_command_input';
  export type kill_command = 'kill_command';
  export type palimpsest_change_propose = 'palimpsest_change_propose';
  export type palimpsest_edit_plan = 'palimpsest_edit_plan';
  export type palimpsest_change_inspect = 'palimpsest_change_inspect';
  export type palimpsest_check_run = 'palimpsest_check_run';
  export type palimpsest_change_apply = 'palimpsest_change_apply';
  export type palimpsest_change_discard = 'palimpsest_change_discard';
  export type palimpsest_search_targets = 'palimpsest_search_targets';
  export type palimpsest_get_target_activity = 'palimpsest_get_target_activity';
  export type palimpsest_changes_since = 'palimpsest_changes_since';
  export type palimpsest_relocate_range = 'palimpsest_relocate_range';
  export type palimpsest_undo_attempt = 'palimpsest_undo_attempt';
  export type palimpsest_undo_edit = 'palimpsest_undo_edit';
  export type palimpsest_list_sessions = 'palimpsest_list_sessions';
  export type palimpsest_session_activity = 'palimpsest_session_activity';
  export type palimpsest_diff_versions = 'palimpsest_diff_versions';
  export type palimpsest_file_history = 'palimpsest_file_history';
  export type palimpsest_workspace_as_of = 'palimpsest_workspace_as_of';
  export type palimpsest_prove_event = 'palimpsest_prove_event';
  export type palimpsest_prove_consistency = 'palimpsest_prove_consistency';
  export type palimpsest_open_snapshot = 'palimpsest_open_snapshot';
  export type palimpsest_snapshot_status = 'palimpsest_snapshot_status';
  export type palimpsest_read_snapshot_file = 'palimpsest_read_snapshot_file';
  export type palimpsest_node_find = 'palimpsest_node_find';
  export type palimpsest_node_get = 'palimpsest_node_get';
  export type palimpsest_graph_query = 'palimpsest_graph_query';
  export type palimpsest_context_build = 'palimpsest_context_build';
  export type palimpsest_impact_analyze = 'palimpsest_impact_analyze';
  export type list_projects = 'list_projects';
  export type get_active_project = 'get_active_project';
  export type set_active_project = 'set_active_project';
}
