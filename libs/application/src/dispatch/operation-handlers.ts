import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import type { SubmissionOperation } from '@palimpsest/protocol/catalog/operations/submissions.operations';
import { PROTOCOL, type ProtocolVersion } from '@palimpsest/core/transaction/transaction.types';
import type { HandlerSession, OperationHandler } from './operation-handler';
import { proposalOf } from '../shared/submission-tools';
import { handleUpload, initializeTarget } from '../initialize-target/initialize-target.handler';
import { getAttemptLog } from '../queries/attempt-log.handler';
import { getManifestLedger } from '../queries/manifest-ledger.handler';
import {
  exportTargetQuery,
  findOccurrencesQuery,
  getTarget,
  readLinesQuery,
  readTargetQuery,
} from '../queries/target-reads.handler';
import { replayTargetQuery } from '../replay-target/replay-target.handler';
import { capabilitiesManifest } from '../capabilities/capabilities.handler';
import { previewProposal } from '../preview-proposal/preview-proposal.handler';
import { saveCheckpoint } from '../save-checkpoint/save-checkpoint.handler';
import { submitProposal, type SubmissionResult } from '../submit-proposal/submit-proposal.handler';
import type { Admitted } from '@palimpsest/protocol/catalog/operation-types';
import type { AppContext } from '../app-context';
import { CANDIDATE_HANDLERS } from '../candidates/candidate-handlers';
import { refreshWorkspaceFile } from '../workspace-refresh/workspace-refresh.handler';
import { workspaceStatus } from '../workspace-status/workspace-status.handler';
import { readFile } from '../file-tools/read-file/read-file.handler';
import { listFiles } from '../file-tools/list-files/list-files.handler';
import { grep } from '../file-tools/grep/grep.handler';
import { editFile } from '../file-tools/edit-file/edit-file.handler';
import { writeFile } from '../file-tools/write-file/write-file.handler';
import { observeScope } from '../observe-scope/observe-scope.handler';
import { submitObserved } from '../submit-observed/submit-observed.handler';
import { searchTargets } from '../read-models/search-targets.handler';
import { onReplica, showingWrite } from '../read-models/replica-reads';
import { proveConsistency, proveEvent } from '../audit/prove.handler';
import { getTargetActivity } from '../read-models/target-activity.handler';
import { runCommand } from '../commands/run-command/run-command.handler';
import { startCommand } from '../commands/start-command/start-command.handler';
import { getCommandOutput } from '../commands/get-command-output/get-command-output.handler';
import { sendCommandInput } from '../commands/send-command-input/send-command-input.handler';
import { killCommand } from '../commands/kill-command/kill-command.handler';
import { UNDO_HANDLERS } from '../undo/undo-handlers';
import { listSessions, sessionActivity } from '../session-audit/session-audit.handler';
import { diffVersions } from '../history/diff-versions/diff-versions.handler';
import { fileHistory } from '../history/file-history/file-history.handler';
import { workspaceAsOf } from '../history/workspace-as-of/workspace-as-of.handler';
import { captureMode, SNAPSHOT_HANDLERS } from '../snapshots/snapshot-handlers';
import { graphQuery, impactAnalyze, nodeFind, nodeGet } from '../code-graph/code-graph.handler';
import { contextBuild } from '../code-graph/context-build.handler';
import { getActiveProject, listProjects, setActiveProject } from '../relay/projects.handler';

/** The caller's policy (approvals on writes), progress sink and cancellation, as change_apply gets them. */
const writeCaller = (s: HandlerSession) => ({ policy: s.policy ?? null, progress: s.progress, signal: s.signal, correlationId: s.correlationId });

/** Exactly one handler per catalog operation: a missing, extra or misspelled one is a compile error. */
export type OperationHandlers = { [N in OperationName]: OperationHandler<N> };

/** rebase as sent, else the policy's default (only where the tool takes it: never for a whole replacement). */
function rebaseOf(args: Admitted<SubmissionOperation>, protocol: ProtocolVersion, s: HandlerSession): boolean | undefined {
  if (protocol === PROTOCOL.tx3) return undefined;
  if ('rebase' in args && typeof args.rebase === 'boolean') return args.rebase;
  return s.policy?.rebase === true ? true : undefined;
}

/** Split submission arguments into the envelope and the proposal fields the caller supplied. */
function submit(ctx: AppContext, args: Admitted<SubmissionOperation>, protocol: ProtocolVersion, s: HandlerSession): Promise<SubmissionResult> {
  return submitProposal(ctx, {
    target_file_id: args.target_file_id,
    protocol_version: protocol,
    proposal: proposalOf(args),
    expected_target_version: args.expected_target_version,
    expected_current_hash: args.expected_current_hash,
    client_request_id: args.client_request_id,
    parent_attempt_id: args.parent_attempt_id,
    attempt: args.attempt,
    source: args.source,
    include_correlation_id: args.include_correlation_id,
    session_id: s.correlationId ?? null,
    rebase: rebaseOf(args, protocol, s),
  });
}

export const OPERATION_HANDLERS: OperationHandlers = {
  palimpsest_initialize_target: (ctx, a) => initializeTarget(ctx, a),
  palimpsest_handle_upload: (ctx, a) => handleUpload(ctx, a),
  palimpsest_get_target: (ctx, a) => getTarget(ctx, a),
  palimpsest_export_target: (ctx, a) => exportTargetQuery(ctx, a),
  palimpsest_read_target: (ctx, a) => readTargetQuery(ctx, a),
  palimpsest_read_lines: (ctx, a) => readLinesQuery(ctx, a),
  palimpsest_find_occurrences: (ctx, a) => findOccurrencesQuery(ctx, a),
  palimpsest_observe_scope: (ctx, a, s) => observeScope(ctx, a, s.profile === 'read-only' || s.policy?.mode === 'read_only'),
  palimpsest_submit_observed_operations: (ctx, a, s) => submitObserved(ctx, { ...a, session_id: s.correlationId ?? null }),
  palimpsest_submit_edits: (ctx, a, s) => submit(ctx, a, PROTOCOL.tx1, s),
  palimpsest_submit_operations: (ctx, a, s) => submit(ctx, a, PROTOCOL.tx2, s),
  palimpsest_submit_replacement: (ctx, a, s) => submit(ctx, a, PROTOCOL.tx3, s),
  palimpsest_preview: (ctx, a) => previewProposal(ctx, a),
  palimpsest_save: (ctx, a) => saveCheckpoint(ctx, a),
  palimpsest_replay: (ctx, a) => replayTargetQuery(ctx, a),
  palimpsest_get_attempt_log: (ctx, a) => showingWrite(ctx, a, (c) => getAttemptLog(c, a)),
  palimpsest_get_manifest_ledger: (ctx, a) => showingWrite(ctx, a, (c) => getManifestLedger(c, a)),
  palimpsest_capabilities: async (ctx, a, session) => capabilitiesManifest(session, ctx.workspace, a.detail === true, ctx.grepTimeoutMs),
  palimpsest_workspace_refresh: (ctx, a) => refreshWorkspaceFile(ctx, a),
  palimpsest_workspace_status: (ctx, a) => workspaceStatus(ctx, a),
  grep: (ctx, a) => grep(ctx, a),
  list_files: (ctx, a) => listFiles(ctx, a),
  read_file: (ctx, a) => readFile(ctx, a),
  edit_file: (ctx, a, s) => editFile(ctx, a, writeCaller(s)),
  write_file: (ctx, a, s) => writeFile(ctx, a, writeCaller(s)),
  run_command: (ctx, a, s) => runCommand(ctx, a, s),
  start_command: (ctx, a, s) => startCommand(ctx, a, s),
  get_command_output: (ctx, a) => getCommandOutput(ctx, a),
  send_command_input: (ctx, a, s) => sendCommandInput(ctx, a, s),
  kill_command: (ctx, a) => killCommand(ctx, a),
  ...CANDIDATE_HANDLERS,
  palimpsest_search_targets: (ctx, a) => onReplica(ctx, (c) => searchTargets(c, a)),
  palimpsest_get_target_activity: (ctx, a) => onReplica(ctx, (c) => getTargetActivity(c, a)),
  ...UNDO_HANDLERS,
  palimpsest_list_sessions: (ctx, a) => listSessions(ctx, a),
  palimpsest_session_activity: (ctx, a) => sessionActivity(ctx, a),
  palimpsest_diff_versions: (ctx, a) => diffVersions(ctx, a),
  palimpsest_file_history: (ctx, a) => showingWrite(ctx, a, (c) => fileHistory(c, a)),
  palimpsest_workspace_as_of: (ctx, a) => workspaceAsOf(ctx, a),
  palimpsest_prove_event: (ctx, a) => proveEvent(ctx, a),
  palimpsest_prove_consistency: (ctx, a) => proveConsistency(ctx, a),
  ...SNAPSHOT_HANDLERS,
  palimpsest_node_find: (ctx, a, s) => nodeFind(ctx, a, captureMode(s)),
  palimpsest_node_get: (ctx, a, s) => nodeGet(ctx, a, captureMode(s)),
  palimpsest_graph_query: (ctx, a, s) => graphQuery(ctx, a, captureMode(s)),
  palimpsest_impact_analyze: (ctx, a, s) => impactAnalyze(ctx, a, captureMode(s)),
  palimpsest_context_build: (ctx, a, s) => contextBuild(ctx, a, captureMode(s)),
  list_projects: (ctx, a, s) => listProjects(ctx, a, s),
  get_active_project: (ctx, a, s) => getActiveProject(ctx, a, s),
  set_active_project: (ctx, a, s) => setActiveProject(ctx, a, s),
};
