import { CATALOG, type OperationName } from '@palimpsest/protocol/catalog/catalog';
import { EXAMPLE_TARGET_ID, EXAMPLE_TEXT } from '@palimpsest/protocol/catalog/fragments';
import { answerErrors, isAnswerOf } from '@palimpsest/protocol/answer-guard';
import type { Success } from '@palimpsest/protocol/catalog/operation-types';
import { commonFields, type AnyResult } from '@palimpsest/protocol/outcome';
import { httpOutcome } from '../routes/http-outcome';
import { routeOf } from '../routes/route-table';
import { bindObserved } from '@palimpsest/protocol/catalog/observed-examples';
import { ALTERNATE_REQUESTS, ERROR_REQUESTS, EXAMPLE_ATTEMPT_ID, EXAMPLE_CANDIDATE_ID, EXAMPLE_CODE, EXAMPLE_DOCUMENT, EXAMPLE_PROCESS_ID, exampleOf, type ExampleRequest, type Setup } from './example-requests';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * The run that makes the OpenAPI document's examples: every request of example-requests.ts, each on a
 * fresh target holding EXAMPLE_TEXT at version 0, and its real answer. The ids the run creates are
 * written back as the fixed example ids, so the document reads the same on every run;
 * openapi-examples.int.spec.ts reruns it on both backends and compares.
 */

export { EXAMPLE_CANDIDATE_ID };
/** What the document shows as an error's trace_id (the request's X-Request-Id). */
export const EXAMPLE_TRACE_ID = 'req-7c0e1d9a';

/** A successful answer the document shows. */
export interface AnswerRun {
  title: string;
  params: Record<string, unknown>;
  result: AnyResult;
}

/** An error answer the document shows, as the gateway sends it: HTTP status and body. */
export interface ErrorExampleRun {
  name: string;
  summary: string;
  status: number;
  body: Record<string, unknown>;
  /** The operation that answered it (a catalog route's refusal); absent for the gateway's own. */
  operation?: OperationName;
}

export interface ExampleRuns {
  /** Each operation's example, by operation. */
  operations: Record<string, AnswerRun>;
  /** Further successful answers, by `<operation>.<name>`. */
  alternates: Record<string, AnswerRun & { operation: OperationName }>;
  errors: ErrorExampleRun[];
  /** The gateway routes' answers (replay_all, projections_rebuild, approvals_list), by route name. */
  gateway: Record<string, unknown>;
}

export type Call = (operation: OperationName, args: Record<string, unknown>) => Promise<AnyResult>;

/** The workspace root the examples' context serves, and a way to change a file under it (the run does no IO itself). */
export interface ExampleWorkspace {
  path: string;
  write(relativePath: string, text: string): void;
}

/** What the document shows as the workspace root's path. */
export const EXAMPLE_WORKSPACE_ROOT = '/srv/workspace';
const EXAMPLE_FILE = 'docs/notes.md';

const SUCCESS = ['ok', 'accepted', 'saved', 'success', 'observed', 'observed_batch'];
const isSuccess = <N extends OperationName>(answer: AnyResult, operation: N): answer is Success<N> & AnyResult =>
  SUCCESS.includes(answer.status) && isAnswerOf(operation, answer);

const rebind = <T>(value: T, from: string, to: string): T => JSON.parse(JSON.stringify(value).split(from).join(to)) as T;

/** ids: real id → the example id it stands for. */
const writeBack = <T>(value: T, ids: Record<string, string>): T => Object.entries(ids).reduce((v, [real, shown]) => rebind(v, real, shown), value);
const bindIds = <T>(value: T, ids: Record<string, string>): T => Object.entries(ids).reduce((v, [real, shown]) => rebind(v, shown, real), value);

/** A setup step's success, checked against its operation's answer schema: the setup picks ids out of it. */
async function ok<N extends OperationName>(call: Call, operation: N, args: Record<string, unknown>): Promise<Success<N>> {
  const result = await call(operation, args);
  if (!isSuccess(result, operation)) throw new Error(`${operation} example setup failed: ${answerErrors(operation, result) ?? JSON.stringify(result)}`);
  return result;
}

function required(operation: OperationName): ExampleRequest {
  const example = exampleOf(operation);
  if (!example) throw new Error(`${operation} has no example: add one to its catalog entry or to example-requests.ts`);
  return example;
}

/** A fresh target and what the request needs done first; the ids it made. */
async function prepare(call: Call, setup: Setup, n: number, workspace: ExampleWorkspace | null, audit: (() => Promise<void>) | null): Promise<Record<string, string>> {
  const content = setup === 'document' || setup === 'observed_document' || setup === 'observed_bundle' ? EXAMPLE_DOCUMENT : EXAMPLE_TEXT;
  const inWorkspace = setup === 'drifted_file' || setup === 'started_command' || setup === 'answered_command' || setup === 'edited_file' || setup === 'code_files';
  const created = inWorkspace ? await driftedFile(call, workspace) : await ok(call, OP.palimpsest_initialize_target, { filename: 'notes.md', content, content_type: 'text/markdown' });
  const ids: Record<string, string> = { [created.target_file_id]: EXAMPLE_TARGET_ID };
  if (workspace) ids[workspace.path] = EXAMPLE_WORKSPACE_ROOT;
  const edit = required(OP.palimpsest_submit_edits).params;
  if (setup === 'edited' || setup === 'audited') await ok(call, OP.palimpsest_submit_edits, bindIds(edit, ids));
  if (setup === 'audited') {
    if (!audit) throw new Error('the audited examples need the audit log: pass its catch-up to runExamples');
    await audit();
  }
  if (setup === 'undoable') ids[String((await ok(call, OP.palimpsest_submit_edits, bindIds(edit, ids))).attempt_id)] = EXAMPLE_ATTEMPT_ID;
  if (setup === 'code_files') for (const [path, content] of Object.entries(EXAMPLE_CODE)) await ok(call, OP.write_file, { path, content });
  if (setup === 'edited_file') ids[String((await ok(call, OP.edit_file, required(OP.edit_file).params)).attempt_id)] = EXAMPLE_ATTEMPT_ID;
  if (setup === 'observed_document' || setup === 'observed_bundle') {
    Object.assign(ids, await bindObserved((operation, args) => ok(call, operation as OperationName, args), setup, created.target_file_id));
  }
  if (setup === 'keyed') await ok(call, OP.palimpsest_submit_edits, bindIds({ ...edit, client_request_id: 'example-key-1' }, ids));
  if (setup === 'candidate' || setup === 'checked_candidate' || setup === 'moved_candidate') {
    const propose = { ...required(OP.palimpsest_change_propose).params, request_id: `example-setup-${n}`, checks: [] };
    const proposed = await ok(call, OP.palimpsest_change_propose, bindIds(propose, ids));
    const candidate = proposed.candidate.id;
    ids[candidate] = EXAMPLE_CANDIDATE_ID;
    if (setup === 'checked_candidate') await ok(call, OP.palimpsest_check_run, { candidate, checks: ['utf8'] });
    if (setup === 'moved_candidate') await ok(call, OP.palimpsest_submit_replacement, bindIds(required(OP.palimpsest_submit_replacement).params, ids));
  }
  if (setup === 'started_command' || setup === 'answered_command') {
    const started = await ok(call, OP.start_command, { command: 'cat' });
    ids[started.processId] = EXAMPLE_PROCESS_ID;
    if (setup === 'answered_command') await ok(call, OP.send_command_input, { processId: started.processId, data: 'hello' });
  }
  return ids;
}

/** A target imported from a workspace file that was then edited outside Palimpsest. */
async function driftedFile(call: Call, workspace: ExampleWorkspace | null): Promise<Success<OP.palimpsest_initialize_target>> {
  if (!workspace) throw new Error('the drifted_file examples need a workspace: pass one to runExamples');
  workspace.write(EXAMPLE_FILE, EXAMPLE_TEXT);
  const created = await ok(call, OP.palimpsest_initialize_target, { filename: EXAMPLE_FILE, from_workspace: true, content_type: 'text/markdown' });
  workspace.write(EXAMPLE_FILE, 'alpha beta gamma\n');
  return created;
}

/** The body an error outcome is sent with (operation-runner's send): the answer, its envelope with the trace id. */
function errorBody(operation: OperationName, result: AnyResult): { status: number; body: Record<string, unknown> } {
  const outcome = httpOutcome(routeOf(operation), commonFields(result));
  const error = outcome.error ?? commonFields(result).error;
  return { status: outcome.status, body: { ...result, error: { ...error, trace_id: EXAMPLE_TRACE_ID } } };
}

/** Runs every example request against `call`; the answers are written back to the example ids. */
/** `audit`: brings the audit log up to the store and signs a checkpoint (the projector's reactor, run to the end). */
/** `settle`: records what a started command holds back (its start, kept a moment), so that each run writes the same log. */
export async function runExamples(
  call: Call,
  workspace: ExampleWorkspace | null = null,
  audit: (() => Promise<void>) | null = null,
  settle: (() => Promise<void>) | null = null,
): Promise<Omit<ExampleRuns, 'gateway'>> {
  let n = 0;
  const run = async (request: ExampleRequest) => {
    const ids = await prepare(call, request.setup, ++n, workspace, audit);
    const answer = writeBack(await call(request.operation, bindIds(request.params, ids)), ids);
    await settle?.();
    return answer;
  };
  const operations: ExampleRuns['operations'] = {};
  for (const spec of CATALOG) {
    const example = required(spec.name);
    operations[spec.name] = { title: example.title, params: example.params, result: await run(example) };
  }
  const alternates: ExampleRuns['alternates'] = {};
  for (const request of ALTERNATE_REQUESTS) {
    const { name, title, params, operation } = request;
    alternates[`${operation}.${name}`] = { operation, title, params, result: await run(request) };
  }
  const errors: ErrorExampleRun[] = [];
  for (const request of ERROR_REQUESTS) {
    const answer = errorBody(request.operation, await run(request));
    errors.push({ name: request.name, summary: request.title, operation: request.operation, ...answer });
  }
  return { operations, alternates, errors };
}
