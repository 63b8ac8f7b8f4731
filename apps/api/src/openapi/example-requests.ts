import { CATALOG, type OperationName } from '@palimpsest/protocol/catalog/catalog';
import { EXAMPLE_TARGET_ID } from '@palimpsest/protocol/catalog/fragments';
import type { OperationExample } from '@palimpsest/protocol/catalog/operation-spec';
import { OBSERVED_EXAMPLES } from '@palimpsest/protocol/catalog/observed-examples';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * The requests the OpenAPI document's examples are the answers of, all written against the catalog's
 * fixture (a target holding EXAMPLE_TEXT at version 0, EXAMPLE_TARGET_ID standing for its id).
 */

export const EXAMPLE_CANDIDATE_ID = '3d9b6f1e-7a2c-4e58-b0d4-6c1f8a9e2b57';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
export const EXAMPLE_PROCESS_ID = '8c1e4b7a-2f5d-4a96-b3e0-7d9a6c2f1e84';
export const EXAMPLE_ATTEMPT_ID = '6a2f9c4e-1b7d-4e35-a8c0-9f3e5d1b7a26';

/** What is done to the fresh target before the request runs. */
export type Setup =
  | 'none'
  | 'edited' // the submit_edits example accepted (version 1)
  | 'keyed' // an edit accepted under client_request_id example-key-1
  | 'candidate' // the change_propose example proposed (EXAMPLE_CANDIDATE_ID, version 1)
  | 'checked_candidate' // … and its utf8 check run
  | 'moved_candidate' // … and the target edited after it
  | 'document' // the target holds EXAMPLE_DOCUMENT (Markdown with sections) instead
  | 'observed_document' // … and its section Guide.Install observed (EXAMPLE_OBSERVATION_ID)
  | 'observed_bundle' // … and Guide.Install and Guide.Usage observed as one bundle (EXAMPLE_BUNDLE_ID)
  | 'drifted_file' // the target imported from the workspace file docs/notes.md, which is then edited outside Palimpsest
  | 'started_command' // … and `cat` started at the workspace root (EXAMPLE_PROCESS_ID)
  | 'answered_command' // … and `hello` sent to it
  | 'audited' // the submit_edits example accepted, then the audit log caught up and a checkpoint signed
  | 'undoable' // as edited, its attempt EXAMPLE_ATTEMPT_ID
  | 'edited_file' // as drifted_file, then the edit_file example accepted (its attempt EXAMPLE_ATTEMPT_ID)
  | 'code_files'; // as drifted_file, then EXAMPLE_CODE written with write_file (src/greet.ts and src/app.ts)

/** The code the code graph's examples read (the 'code_files' setup). */
export const EXAMPLE_CODE: Record<string, string> = {
  'src/greet.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
  'src/app.ts': "import { greet } from './greet';\n\nexport function main(): string {\n  return greet('app');\n}\n",
};
const GREET_NODE = 'function:src/greet.ts#greet';

export interface ExampleRequest extends Omit<OperationExample, 'setup'> {
  operation: OperationName;
  setup: Setup;
}

/** A Markdown document with structure to observe (the 'document' setup), and the observed examples' ids. */
export { EXAMPLE_DOCUMENT, EXAMPLE_OBSERVATION_ID } from '@palimpsest/protocol/catalog/observed-examples';

/** Examples for the operations the catalog gives none. */
const GATEWAY_EXAMPLES: Partial<Record<OperationName, Omit<ExampleRequest, 'operation'>>> = {
  palimpsest_handle_upload: { title: 'Upload a file\'s text', params: { filename: 'notes.md', content: 'alpha beta alpha\n', content_type: 'text/markdown' }, setup: 'none' },
  palimpsest_get_target: { title: 'The target after one accepted edit', params: { target_file_id: EXAMPLE_TARGET_ID }, setup: 'edited' },
  palimpsest_export_target: { title: 'Export with CRLF line endings', params: { target_file_id: EXAMPLE_TARGET_ID, format: 'crlf' }, setup: 'none' },
  palimpsest_replay: { title: 'Replay a target with one accepted edit', params: { target_file_id: EXAMPLE_TARGET_ID }, setup: 'edited' },
  palimpsest_get_attempt_log: { title: 'Newest attempts first', params: { target_file_id: EXAMPLE_TARGET_ID, limit: 10 }, setup: 'edited' },
  palimpsest_get_manifest_ledger: { title: 'The accepted changes', params: { target_file_id: EXAMPLE_TARGET_ID, limit: 10 }, setup: 'edited' },
  palimpsest_undo_attempt: { title: 'Undo an accepted edit', params: { target_file_id: EXAMPLE_TARGET_ID, attempt_id: EXAMPLE_ATTEMPT_ID }, setup: 'undoable' },
  palimpsest_undo_edit: { title: 'Undo an edit_file of a workspace file', params: { path: 'docs/notes.md', attempt_id: EXAMPLE_ATTEMPT_ID }, setup: 'edited_file' },
  palimpsest_file_history: { title: 'A workspace file\'s versions, newest first', params: { path: 'docs/notes.md', limit: 10 }, setup: 'edited_file' },
  palimpsest_workspace_as_of: { title: 'Every bound file as of a log position', params: { as_of: { position: 1 } }, setup: 'edited_file' },
  palimpsest_capabilities: { title: 'What this runtime supports', params: {}, setup: 'none' },
  palimpsest_prove_event: { title: 'The audit path of the log\'s first event to the latest signed checkpoint', params: { global_position: 1 }, setup: 'audited' },
  palimpsest_prove_consistency: { title: 'The latest signed checkpoint extends the one before it', params: {}, setup: 'audited' },
  palimpsest_node_find: { title: 'Functions named like greet', params: { query: 'greet', kind: 'function' }, setup: 'code_files' },
  palimpsest_node_get: { title: 'A function\'s signature and version', params: { nodes: [GREET_NODE] }, setup: 'code_files' },
  palimpsest_graph_query: { title: 'What uses a function', params: { from: [GREET_NODE], mode: 'dependents' }, setup: 'code_files' },
  palimpsest_context_build: { title: 'The context to change a function\'s behaviour', params: { focus: [GREET_NODE], purpose: 'change_behavior' }, setup: 'code_files' },
  palimpsest_impact_analyze: { title: 'What a change to a function would affect', params: { targets: [GREET_NODE] }, setup: 'code_files' },
  palimpsest_workspace_refresh: { title: 'Take in an edit made outside Palimpsest', params: { target_file_id: EXAMPLE_TARGET_ID }, setup: 'drifted_file' },
  palimpsest_workspace_status: { title: 'The bound files that drifted', params: { path_prefix: 'docs/', state: 'drifted' }, setup: 'drifted_file' },
  grep: { title: 'Where a word occurs in the Markdown files', params: { pattern: 'gamma', glob: '**/*.md' }, setup: 'drifted_file' },
  list_files: { title: 'Every file under docs', params: { path: 'docs', recursive: true }, setup: 'drifted_file' },
  read_file: { title: 'The first line of a file', params: { path: 'docs/notes.md', offset: 1, limit: 1 }, setup: 'drifted_file' },
  edit_file: { title: 'Edit the one place oldString matches (the file changed outside first: taken in, then edited)', params: { path: 'docs/notes.md', oldString: 'gamma', newString: 'delta' }, setup: 'drifted_file' },
  write_file: { title: 'Create a file and its parents', params: { path: 'docs/new/readme.md', content: 'hello\n' }, setup: 'drifted_file' },
  run_command: { title: 'List a directory at the workspace root', params: { command: 'ls docs' }, setup: 'drifted_file' },
  start_command: { title: 'Start a process that answers its input', params: { command: 'cat' }, setup: 'drifted_file' },
  send_command_input: { title: 'Answer a started process', params: { processId: EXAMPLE_PROCESS_ID, data: 'hello' }, setup: 'started_command' },
  get_command_output: { title: 'Read what it wrote, waiting up to a second for it', params: { processId: EXAMPLE_PROCESS_ID, cursor: 0, waitMs: 1000 }, setup: 'answered_command' },
  kill_command: { title: 'Stop it and everything it started', params: { processId: EXAMPLE_PROCESS_ID }, setup: 'started_command' },
  list_projects: { title: 'The projects of the connected executors, and this client\'s choice', params: {}, setup: 'none' },
  get_active_project: { title: 'The project this client works in', params: {}, setup: 'none' },
  set_active_project: { title: 'Work in the project named site', params: { project: 'site' }, setup: 'none' },
  palimpsest_observe_scope: { title: 'Select one section exactly (a recorded observation)', params: { target_file_id: EXAMPLE_TARGET_ID, symbol_name: 'Guide.Install', kind: 'section' }, setup: 'document' },
  palimpsest_change_inspect: { title: 'The proposed change, span by span', params: { candidate: EXAMPLE_CANDIDATE_ID }, setup: 'candidate' },
  palimpsest_check_run: { title: 'Run the utf8 check', params: { candidate: EXAMPLE_CANDIDATE_ID, checks: ['utf8'] }, setup: 'candidate' },
  palimpsest_change_apply: {
    title: 'Apply a checked candidate',
    params: { candidate: EXAMPLE_CANDIDATE_ID, expected_candidate_version: 1, request_id: 'example-apply-1' },
    setup: 'checked_candidate',
  },
  palimpsest_change_discard: { title: 'Discard an open candidate', params: { candidate: EXAMPLE_CANDIDATE_ID }, setup: 'candidate' },  palimpsest_open_snapshot: { title: 'Capture the files on disk now', params: {}, setup: 'none' },
  palimpsest_snapshot_status: { title: 'The disk against the newest snapshot, and the snapshots', params: {}, setup: 'edited_file' },
  palimpsest_read_snapshot_file: { title: 'A file of the snapshot of the files on disk now', params: { snapshot: 'latest', path: 'docs/notes.md' }, setup: 'edited_file' },
};

/** The example the document shows for an operation: the catalog's first, else the gateway's own (setups apply to both). */
export function exampleOf(operation: OperationName): ExampleRequest | undefined {
  const own = GATEWAY_EXAMPLES[operation];
  const catalog = CATALOG.find((op) => op.name === operation)?.examples[0];
  if (!catalog && !own) return undefined;
  return { operation, setup: 'none', ...own, ...catalog } as ExampleRequest;
}

/** Further successful answers worth showing beside an operation's example. */
export const ALTERNATE_REQUESTS: (ExampleRequest & { name: string })[] = [
  { name: 'batch', operation: OP.palimpsest_submit_observed_operations, ...OBSERVED_EXAMPLES[1]!, setup: 'observed_bundle' },
  {
    name: 'rejected',
    title: 'A preview that would be rejected (still a 200: the preview answered)',
    operation: OP.palimpsest_preview,
    params: { target_file_id: EXAMPLE_TARGET_ID, format: 'patchdiff-tx/1', expected_target_version: 0, intent: 'Rename', edits: [{ match: 'alpha', replace: 'gamma' }] },
    setup: 'none',
  },
  { name: 'candidates', title: 'Discover sections (nothing recorded)', operation: OP.palimpsest_observe_scope, params: { target_file_id: EXAMPLE_TARGET_ID, query: 'in', kind: 'section' }, setup: 'document' },
  {
    name: 'observed_batch',
    title: 'Observe two sections from one snapshot',
    operation: OP.palimpsest_observe_scope,
    params: { target_file_id: EXAMPLE_TARGET_ID, selections: [{ symbol_name: 'Guide.Install' }, { symbol_name: 'Usage', kind: 'section' }] },
    setup: 'document',
  },
];

/** Refusals of operation routes, run for real: the error examples (name = the example's key). */
export const ERROR_REQUESTS: (ExampleRequest & { name: string })[] = [
  { name: 'not_found', title: 'Unknown target', operation: OP.palimpsest_get_target, params: { target_file_id: UNKNOWN_ID }, setup: 'none' },
  {
    name: 'precondition_failed',
    title: 'Stale version guard',
    operation: OP.palimpsest_submit_edits,
    params: { target_file_id: EXAMPLE_TARGET_ID, intent: 'Rename', expected_target_version: 3, edits: [{ match: 'beta', replace: 'delta' }] },
    setup: 'none',
  },
  {
    name: 'conflict',
    title: 'A request key already bound to another proposal',
    operation: OP.palimpsest_submit_edits,
    params: { target_file_id: EXAMPLE_TARGET_ID, intent: 'Rename', expected_target_version: 1, client_request_id: 'example-key-1', edits: [{ match: 'beta', replace: 'delta' }] },
    setup: 'keyed',
  },
  {
    name: 'proposal_rejected',
    title: 'Ambiguous match',
    operation: OP.palimpsest_submit_edits,
    params: { target_file_id: EXAMPLE_TARGET_ID, intent: 'Rename', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }] },
    setup: 'none',
  },
  {
    name: 'replacement_too_large',
    title: 'A replacement over its limit',
    operation: OP.palimpsest_submit_replacement,
    params: { target_file_id: EXAMPLE_TARGET_ID, intent: 'Rewrite', expected_target_version: 0, replacement: 'x'.repeat(1_000_001) },
    setup: 'none',
  },
  {
    name: 'invalid_arguments',
    title: 'An argument the operation does not take',
    operation: OP.palimpsest_submit_edits,
    params: { target_file_id: EXAMPLE_TARGET_ID, intent: 'Rename', expected_target_version: 0, edits: [{ match: 'beta', replace: 'delta' }], colour: 'red' },
    setup: 'none',
  },
  { name: 'candidate_not_found', title: 'Unknown candidate', operation: OP.palimpsest_change_inspect, params: { candidate: UNKNOWN_ID }, setup: 'none' },
  {
    name: 'candidate_unmatched',
    title: 'A candidate operation whose text is not there',
    operation: OP.palimpsest_change_propose,
    params: {
      request_id: 'example-propose-unmatched',
      base: [{ target_file_id: EXAMPLE_TARGET_ID, version: 0 }],
      operations: [{ kind: 'edit', target_file_id: EXAMPLE_TARGET_ID, match: 'zeta', replace: 'eta' }],
    },
    setup: 'none',
  },
  {
    name: 'candidate_version_mismatch',
    title: 'A candidate version guard that moved',
    operation: OP.palimpsest_change_apply,
    params: { candidate: EXAMPLE_CANDIDATE_ID, expected_candidate_version: 2, request_id: 'example-apply-stale' },
    setup: 'candidate',
  },
  {
    name: 'candidate_target_moved',
    title: 'A target that moved after the candidate was proposed',
    operation: OP.palimpsest_change_apply,
    params: { candidate: EXAMPLE_CANDIDATE_ID, expected_candidate_version: 1, request_id: 'example-apply-moved' },
    setup: 'moved_candidate',
  },
];
