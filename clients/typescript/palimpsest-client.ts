// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.
// Standalone: the JSON-RPC helpers, and a client whose call(method, params) answers that method's typed Result.
// The host owns the streams (`palimpsest serve` over stdin and stdout, one request per line).
import type { AnswerNotes, AnswersByMethod, Refusal } from './palimpsest-answers';
import type { ParamsByMethod } from './palimpsest-params';

export type * from './palimpsest-answers';
export type * from './palimpsest-params';

export const JSONRPC_VERSION = '2.0';
export const METHODS = ["palimpsest_initialize_target","palimpsest_handle_upload","palimpsest_get_target","palimpsest_export_target","palimpsest_read_target","palimpsest_read_lines","palimpsest_find_occurrences","palimpsest_observe_scope","palimpsest_submit_observed_operations","palimpsest_submit_edits","palimpsest_submit_operations","palimpsest_submit_replacement","palimpsest_preview","palimpsest_save","palimpsest_replay","palimpsest_get_attempt_log","palimpsest_get_manifest_ledger","palimpsest_capabilities","palimpsest_workspace_refresh","palimpsest_workspace_status","grep","list_files","read_file","edit_file","write_file","run_command","start_command","get_command_output","send_command_input","kill_command","palimpsest_change_propose","palimpsest_edit_plan","palimpsest_change_inspect","palimpsest_check_run","palimpsest_change_apply","palimpsest_change_discard","palimpsest_search_targets","palimpsest_get_target_activity","palimpsest_changes_since","palimpsest_relocate_range","palimpsest_undo_attempt","palimpsest_undo_edit","palimpsest_list_sessions","palimpsest_session_activity","palimpsest_diff_versions","palimpsest_file_history","palimpsest_workspace_as_of","palimpsest_prove_event","palimpsest_prove_consistency","palimpsest_open_snapshot","palimpsest_snapshot_status","palimpsest_read_snapshot_file","palimpsest_node_find","palimpsest_node_get","palimpsest_graph_query","palimpsest_context_build","palimpsest_impact_analyze","list_projects","get_active_project","set_active_project"] as const;
export type Method = (typeof METHODS)[number];
export const READ_ONLY_METHODS: readonly Method[] = ["palimpsest_get_target","palimpsest_export_target","palimpsest_read_target","palimpsest_read_lines","palimpsest_find_occurrences","palimpsest_preview","palimpsest_replay","palimpsest_get_attempt_log","palimpsest_get_manifest_ledger","palimpsest_capabilities","palimpsest_workspace_status","grep","list_files","read_file","get_command_output","palimpsest_edit_plan","palimpsest_change_inspect","palimpsest_search_targets","palimpsest_get_target_activity","palimpsest_changes_since","palimpsest_relocate_range","palimpsest_list_sessions","palimpsest_session_activity","palimpsest_diff_versions","palimpsest_file_history","palimpsest_workspace_as_of","palimpsest_prove_event","palimpsest_prove_consistency","palimpsest_open_snapshot","palimpsest_snapshot_status","palimpsest_read_snapshot_file","palimpsest_node_find","palimpsest_node_get","palimpsest_graph_query","palimpsest_context_build","palimpsest_impact_analyze","list_projects","get_active_project","set_active_project"];

/** Every status each method answers with (its result schema). */
export const RESULT_STATUSES = {
  palimpsest_initialize_target: ["ok","invalid_argument","not_found"],
  palimpsest_handle_upload: ["ok","invalid_argument","not_found"],
  palimpsest_get_target: ["ok","not_found","invalid_argument"],
  palimpsest_export_target: ["ok","not_found","invalid_argument"],
  palimpsest_read_target: ["ok","not_found","invalid_argument"],
  palimpsest_read_lines: ["ok","not_found","invalid_argument"],
  palimpsest_find_occurrences: ["ok","not_found","invalid_argument"],
  palimpsest_observe_scope: ["candidates","observed","observed_batch","scope_page","not_found","ambiguous","rejected","unsupported","invalid_argument"],
  palimpsest_submit_observed_operations: ["accepted","rejected","partial","invalid_argument","not_found"],
  palimpsest_submit_edits: ["accepted","rejected","partial","invalid_argument","not_found"],
  palimpsest_submit_operations: ["accepted","rejected","partial","invalid_argument","not_found"],
  palimpsest_submit_replacement: ["accepted","rejected","partial","invalid_argument","not_found"],
  palimpsest_preview: ["accepted","rejected","invalid_argument","not_found"],
  palimpsest_save: ["saved","rejected","partial","not_found","invalid_argument"],
  palimpsest_replay: ["success","failed","not_found","invalid_argument"],
  palimpsest_get_attempt_log: ["ok","not_found","invalid_argument"],
  palimpsest_get_manifest_ledger: ["ok","not_found","invalid_argument"],
  palimpsest_capabilities: ["ok","invalid_argument"],
  palimpsest_workspace_refresh: ["refreshed","in_sync","rejected","not_found","invalid_argument"],
  palimpsest_workspace_status: ["ok","invalid_argument"],
  grep: ["ok","not_found","invalid_argument"],
  list_files: ["ok","not_found","invalid_argument"],
  read_file: ["ok","not_found","invalid_argument"],
  edit_file: ["ok","rejected","partial","not_found","invalid_argument"],
  write_file: ["ok","rejected","partial","not_found","invalid_argument"],
  run_command: ["ok","rejected","not_found","invalid_argument"],
  start_command: ["ok","rejected","not_found","invalid_argument"],
  get_command_output: ["ok","rejected","not_found","invalid_argument"],
  send_command_input: ["ok","rejected","not_found","invalid_argument"],
  kill_command: ["ok","rejected","not_found","invalid_argument"],
  palimpsest_change_propose: ["ok","error","invalid_argument"],
  palimpsest_edit_plan: ["ok","error","invalid_argument"],
  palimpsest_change_inspect: ["ok","error","invalid_argument"],
  palimpsest_check_run: ["ok","error","invalid_argument"],
  palimpsest_change_apply: ["ok","error","invalid_argument"],
  palimpsest_change_discard: ["ok","error","invalid_argument"],
  palimpsest_search_targets: ["ok","invalid_argument"],
  palimpsest_get_target_activity: ["ok","not_found","invalid_argument"],
  palimpsest_changes_since: ["ok","not_found","invalid_argument"],
  palimpsest_relocate_range: ["ok","not_found","invalid_argument"],
  palimpsest_undo_attempt: ["accepted","rejected","partial","not_found","invalid_argument"],
  palimpsest_undo_edit: ["accepted","rejected","partial","not_found","invalid_argument"],
  palimpsest_list_sessions: ["ok","invalid_argument"],
  palimpsest_session_activity: ["ok","invalid_argument"],
  palimpsest_diff_versions: ["ok","not_found","invalid_argument"],
  palimpsest_file_history: ["ok","not_found","invalid_argument"],
  palimpsest_workspace_as_of: ["ok","invalid_argument"],
  palimpsest_prove_event: ["ok","not_found","invalid_argument"],
  palimpsest_prove_consistency: ["ok","not_found","invalid_argument"],
  palimpsest_open_snapshot: ["ok","not_found","invalid_argument"],
  palimpsest_snapshot_status: ["ok","invalid_argument"],
  palimpsest_read_snapshot_file: ["ok","not_found","invalid_argument"],
  palimpsest_node_find: ["ok","not_found","invalid_argument"],
  palimpsest_node_get: ["ok","not_found","invalid_argument"],
  palimpsest_graph_query: ["ok","not_found","invalid_argument"],
  palimpsest_context_build: ["ok","not_found","invalid_argument"],
  palimpsest_impact_analyze: ["ok","not_found","invalid_argument"],
  list_projects: ["ok","invalid_argument"],
  get_active_project: ["ok","not_found","invalid_argument"],
  set_active_project: ["ok","not_found","invalid_argument"],
} as const satisfies { readonly [M in Method]: readonly string[] };
export type ResultStatus<M extends Method> = (typeof RESULT_STATUSES)[M][number];

/** The answer of method M: its success, typed field by field, or one of its refusals. */
export type Result<M extends Method = Method> = { [K in M]: (AnswersByMethod[K] & AnswerNotes) | Refusal<Exclude<ResultStatus<K>, AnswersByMethod[K]['status']>> }[M];

export interface Request<M extends Method> { jsonrpc: '2.0'; id: number | string; method: M; params: ParamsByMethod[M] }
export interface RpcError { code: number; message: string; data?: unknown }
export type Response<M extends Method = Method> =
  | { ok: true; id: number | string; result: Result<M> }
  | { ok: false; id: number | string | null; error: RpcError };

const isMethod = (value: unknown): value is Method => METHODS.some((m) => m === value);

export function request<M extends Method>(id: number | string, method: M, params: ParamsByMethod[M]): Request<M> {
  if (!isMethod(method)) throw new TypeError(`unknown method ${String(method)}`);
  return { jsonrpc: '2.0', id, method, params };
}

/** One NDJSON line for `palimpsest serve`: ASCII-escaped so no line separator can split it. */
export function encodeLine(message: object): string {
  return `${JSON.stringify(message).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

export function encodeRequest<M extends Method>(req: Request<M>): string {
  return encodeLine(req);
}

/** A result of method M (or of any method): an object whose status is one M answers with. */
export function isResultOf<M extends Method>(method: M | undefined, value: unknown): value is Result<M> {
  if (typeof value !== 'object' || value === null || !('status' in value)) return false;
  const status = value.status;
  const statuses: readonly string[] = method === undefined ? Object.values(RESULT_STATUSES).flat() : RESULT_STATUSES[method];
  return typeof status === 'string' && statuses.includes(status);
}

/** A response line; `method`, the request's, types its result (checked: a status the method never answers with is refused). */
export function decodeResponse<M extends Method = Method>(line: string, method?: M): Response<M> {
  const msg: unknown = JSON.parse(line);
  if (typeof msg !== 'object' || msg === null || !('jsonrpc' in msg) || msg.jsonrpc !== '2.0') throw new TypeError('not a JSON-RPC 2.0 response');
  const id = 'id' in msg && (typeof msg.id === 'number' || typeof msg.id === 'string') ? msg.id : null;
  if ('error' in msg && isRpcError(msg.error)) return { ok: false, id, error: msg.error };
  const result = 'result' in msg ? msg.result : undefined;
  if (!isResultOf(method, result) || id === null) throw new TypeError('result without a status of the method');
  return { ok: true, id, result };
}

function isRpcError(value: unknown): value is RpcError {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number' && 'message' in value && typeof value.message === 'string';
}

/** Sends one request line and resolves with its response line. */
export type Transport = (line: string) => Promise<string>;

/** A JSON-RPC error answered instead of a result (unknown method, a frame over its limit, an internal error). */
export class PalimpsestRpcError extends Error {
  constructor(readonly error: RpcError) {
    super(error.message);
  }
}

/** Calls methods over a transport: call(method, params) answers that method's Result, typed by status. */
export class PalimpsestClient {
  private nextId = 1;

  constructor(private readonly transport: Transport) {}

  async call<M extends Method>(method: M, params: ParamsByMethod[M]): Promise<Result<M>> {
    const line = await this.transport(encodeRequest(request(this.nextId++, method, params)));
    const response = decodeResponse(line, method);
    if (!response.ok) throw new PalimpsestRpcError(response.error);
    return response.result;
  }
}
