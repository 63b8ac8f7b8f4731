import { CATALOG, type OperationName } from '@palimpsest/protocol/catalog/catalog';
import { EXAMPLE_TARGET_ID, EXAMPLE_TEXT } from '@palimpsest/protocol/catalog/fragments';
import type { OperationExample } from '@palimpsest/protocol/catalog/operation-spec';
import type { Outcome } from '@palimpsest/protocol/outcome';
import { httpOutcome } from '../routes/http-outcome';
import { routeOf } from '../routes/route-table';

/**
 * The run that makes the OpenAPI document's examples: every operation's request example (the
 * catalog's first, or the gateway's own below for an operation the catalog gives none), each run on a
 * fresh target holding EXAMPLE_TEXT at version 0, and its real answer. The ids the run creates are
 * written back as the fixed example ids, so the document reads the same on every run;
 * operation-examples.int.spec.ts reruns it on both backends and compares.
 */

export const EXAMPLE_CANDIDATE_ID = '3d9b6f1e-7a2c-4e58-b0d4-6c1f8a9e2b57';
/** What the document shows as an error's trace_id (the request's X-Request-Id). */
export const EXAMPLE_TRACE_ID = 'req-7c0e1d9a';

/** What a run needs done to the fresh target before the example runs. */
type Setup = 'none' | 'edited' | 'candidate' | 'checked_candidate';

interface ExampleSpec extends OperationExample {
  setup?: Setup;
}

/** Examples for the operations the catalog has none for, written against the same fixture. */
const GATEWAY_EXAMPLES: Partial<Record<OperationName, ExampleSpec>> = {
  palimpsest_handle_upload: { title: 'Upload a file\'s text', params: { filename: 'notes.md', content: 'alpha beta alpha\n', content_type: 'text/markdown' } },
  palimpsest_get_target: { title: 'The target after one accepted edit', params: { target_file_id: EXAMPLE_TARGET_ID }, setup: 'edited' },
  palimpsest_export_target: { title: 'Export with CRLF line endings', params: { target_file_id: EXAMPLE_TARGET_ID, format: 'crlf' } },
  palimpsest_replay: { title: 'Replay a target with one accepted edit', params: { target_file_id: EXAMPLE_TARGET_ID }, setup: 'edited' },
  palimpsest_get_attempt_log: { title: 'Newest attempts first', params: { target_file_id: EXAMPLE_TARGET_ID, limit: 10 }, setup: 'edited' },
  palimpsest_get_manifest_ledger: { title: 'The accepted changes', params: { target_file_id: EXAMPLE_TARGET_ID, limit: 10 }, setup: 'edited' },
  palimpsest_capabilities: { title: 'What this runtime supports', params: {} },
  palimpsest_change_inspect: { title: 'The proposed change, span by span', params: { candidate: EXAMPLE_CANDIDATE_ID }, setup: 'candidate' },
  palimpsest_check_run: { title: 'Run the utf8 check', params: { candidate: EXAMPLE_CANDIDATE_ID, checks: ['utf8'] }, setup: 'candidate' },
  palimpsest_change_apply: {
    title: 'Apply a checked candidate',
    params: { candidate: EXAMPLE_CANDIDATE_ID, expected_candidate_version: 1, request_id: 'example-apply-1' },
    setup: 'checked_candidate',
  },
  palimpsest_change_discard: { title: 'Discard an open candidate', params: { candidate: EXAMPLE_CANDIDATE_ID }, setup: 'candidate' },
};

/** The example the document shows for an operation. */
export function exampleOf(operation: OperationName): ExampleSpec {
  const own = GATEWAY_EXAMPLES[operation];
  const spec = CATALOG.find((op) => op.name === operation)!;
  const example = spec.examples[0] ?? own;
  if (!example) throw new Error(`${operation} has no example: add one to the catalog or to GATEWAY_EXAMPLES`);
  return { setup: 'none', ...own, ...example };
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
  operations: Record<string, { title: string; params: Record<string, unknown>; result: Outcome }>;
  errors: ErrorExampleRun[];
  /** The gateway routes' answers (replay_all, projections_rebuild, approvals_list), by route name. */
  gateway: Record<string, unknown>;
}

export type Call = (operation: OperationName, args: Record<string, unknown>) => Promise<Outcome>;

const rebind = <T>(value: T, from: string, to: string): T => JSON.parse(JSON.stringify(value).split(from).join(to)) as T;

async function ok(call: Call, operation: OperationName, args: Record<string, unknown>): Promise<Outcome> {
  const result = await call(operation, args);
  if (!['ok', 'accepted', 'saved', 'success'].includes(result.status)) throw new Error(`${operation} example setup failed: ${JSON.stringify(result)}`);
  return result;
}

/** A fresh target and whatever the example needs first; the ids it made, to write back as the example ids. */
async function prepare(call: Call, setup: Setup, n: number): Promise<Record<string, string>> {
  const created = await ok(call, 'palimpsest_initialize_target', { filename: 'notes.md', content: EXAMPLE_TEXT, content_type: 'text/markdown' });
  const target = String(created.target_file_id);
  const ids: Record<string, string> = { [target]: EXAMPLE_TARGET_ID };
  const bind = <T>(v: T) => rebind(v, EXAMPLE_TARGET_ID, target);
  if (setup === 'edited') await ok(call, 'palimpsest_submit_edits', bind(exampleOf('palimpsest_submit_edits').params));
  if (setup === 'candidate' || setup === 'checked_candidate') {
    const proposed = await ok(call, 'palimpsest_change_propose', { ...bind(exampleOf('palimpsest_change_propose').params), request_id: `example-setup-${n}`, checks: [] });
    const candidate = String((proposed.candidate as { candidate?: string; id?: string }).candidate ?? (proposed.candidate as { id?: string }).id);
    ids[candidate] = EXAMPLE_CANDIDATE_ID;
    if (setup === 'checked_candidate') await ok(call, 'palimpsest_check_run', { candidate, checks: ['utf8'] });
  }
  return ids;
}

const writeBack = <T>(value: T, ids: Record<string, string>): T =>
  Object.entries(ids).reduce((v, [real, shown]) => rebind(v, real, shown), value);

const bindIds = <T>(value: T, ids: Record<string, string>): T =>
  Object.entries(ids).reduce((v, [real, shown]) => rebind(v, shown, real), value);

/** The body an error outcome is sent with (operation-runner's send): the answer, its envelope with the trace id. */
function errorBody(operation: OperationName, result: Outcome): { status: number; body: Record<string, unknown> } {
  const outcome = httpOutcome(routeOf(operation), result);
  const error = outcome.error ?? (result.error as object | undefined);
  return { status: outcome.status, body: { ...result, error: { ...error, trace_id: EXAMPLE_TRACE_ID } } };
}

/** Rejections and a not-found, run for real: the error examples of the operation routes. */
const ERROR_RUNS: { name: string; summary: string; operation: OperationName; params: Record<string, unknown>; setup?: Setup }[] = [
  {
    name: 'not_found',
    summary: 'Unknown target',
    operation: 'palimpsest_get_target',
    params: { target_file_id: '00000000-0000-4000-8000-000000000000' },
  },
  {
    name: 'precondition_failed',
    summary: 'Stale version guard',
    operation: 'palimpsest_submit_edits',
    params: { target_file_id: EXAMPLE_TARGET_ID, intent: 'Rename', expected_target_version: 3, edits: [{ match: 'beta', replace: 'delta' }] },
  },
  {
    name: 'proposal_rejected',
    summary: 'Ambiguous match',
    operation: 'palimpsest_submit_edits',
    params: { target_file_id: EXAMPLE_TARGET_ID, intent: 'Rename', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }] },
  },
  {
    name: 'replacement_too_large',
    summary: 'A replacement over its limit',
    operation: 'palimpsest_submit_replacement',
    params: { target_file_id: EXAMPLE_TARGET_ID, intent: 'Rewrite', expected_target_version: 0, replacement: 'x'.repeat(1_000_001) },
  },
  {
    name: 'candidate_not_found',
    summary: 'Unknown candidate',
    operation: 'palimpsest_change_inspect',
    params: { candidate: '00000000-0000-4000-8000-000000000000' },
  },
  {
    name: 'candidate_unmatched',
    summary: 'A candidate operation whose text is not there',
    operation: 'palimpsest_change_propose',
    params: {
      request_id: 'example-propose-unmatched',
      base: [{ target_file_id: EXAMPLE_TARGET_ID, version: 0 }],
      operations: [{ kind: 'edit', target_file_id: EXAMPLE_TARGET_ID, match: 'zeta', replace: 'eta' }],
    },
  },
  {
    name: 'candidate_version_mismatch',
    summary: 'A candidate version guard that moved',
    operation: 'palimpsest_change_apply',
    params: { candidate: EXAMPLE_CANDIDATE_ID, expected_candidate_version: 2, request_id: 'example-apply-stale' },
    setup: 'candidate',
  },
  {
    name: 'invalid_arguments',
    summary: 'An argument the operation does not take',
    operation: 'palimpsest_submit_edits',
    params: { target_file_id: EXAMPLE_TARGET_ID, intent: 'Rename', expected_target_version: 0, edits: [{ match: 'beta', replace: 'delta' }], colour: 'red' },
  },
];

/** Runs every example (and the error runs) against `call`; the answers are written back to the example ids. */
export async function runExamples(call: Call): Promise<Omit<ExampleRuns, 'gateway'>> {
  const operations: ExampleRuns['operations'] = {};
  let n = 0;
  for (const spec of CATALOG) {
    const example = exampleOf(spec.name);
    const ids = await prepare(call, example.setup ?? 'none', ++n);
    const result = await call(spec.name, bindIds(example.params, ids));
    operations[spec.name] = { title: example.title, params: example.params, result: writeBack(result, ids) };
  }
  const errors: ErrorExampleRun[] = [];
  for (const run of ERROR_RUNS) {
    const ids = await prepare(call, run.setup ?? 'none', ++n);
    const result = await call(run.operation, bindIds(run.params, ids));
    errors.push({ name: run.name, summary: run.summary, operation: run.operation, ...writeBack(errorBody(run.operation, result), ids) });
  }
  return { operations, errors };
}
