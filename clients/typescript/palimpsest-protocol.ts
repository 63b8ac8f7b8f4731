// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.
// The protocol's own methods and answer decoding; pure: no I/O (the host owns `palimpsest serve`'s streams).
import { RESULT_STATUSES, encodeLine, type Method, type RpcError } from './palimpsest-client';

export const PROTOCOL_VERSION = "palimpsest.json-lines.v1";
export const PROTOCOL_RESULT_SCHEMA = "palimpsest.protocol-result.v1";
export const PROTOCOL_METHODS = ["protocol/capabilities","protocol/schemas","protocol/instructions","protocol/client","query/catalog"] as const;
export type ProtocolMethod = (typeof PROTOCOL_METHODS)[number];
/** The image protocol's workspace methods: the operations that answer them, under their names. */
export const WORKSPACE_METHODS = {"workspace/open":"palimpsest_open_snapshot","workspace/status":"palimpsest_snapshot_status"} as const;
export type WorkspaceMethod = keyof typeof WORKSPACE_METHODS;
export type AnyMethod = Method | ProtocolMethod | WorkspaceMethod;

/** The params of each protocol method. */
export interface ProtocolParams {
  "protocol/capabilities": Record<string, never>;
  "protocol/schemas": Record<string, never>;
  "protocol/instructions": Record<string, never>;
  "protocol/client": {
    language: "typescript" | "python" | "rust";
  };
  "query/catalog": Record<string, never>;
}

/** What each protocol method's success carries in its payload. */
export interface ProtocolPayloads {
  "protocol/capabilities": {
    capability: "read_only" | "read_write";
    profile: string;
    methods: Array<string>;
    limits: Record<string, unknown>;
  };
  "protocol/schemas": {
    dialect: string;
    methods: Record<string, unknown>;
    success: Record<string, unknown>;
    error: Record<string, unknown>;
  };
  "protocol/instructions": {
    profile: string;
    capability: "read_only" | "read_write";
    instructions: Array<string>;
  };
  "protocol/client": {
    language: "typescript" | "python" | "rust";
    files: Array<{
      path: string;
      sha256: string;
      content: string;
    }>;
  };
  "query/catalog": {
    queries: Array<Record<string, unknown>>;
  };
}

export type ProtocolResult<M extends ProtocolMethod> = { status: 'ok'; schema: typeof PROTOCOL_RESULT_SCHEMA; protocol: typeof PROTOCOL_VERSION; payload: ProtocolPayloads[M] };

/** The statuses that mean each method did what was asked; its other statuses are refusals. */
export const SUCCESS_STATUSES: { readonly [M in AnyMethod]: readonly string[] } = {
  "edit_file": ["ok"],
  "get_active_project": ["ok"],
  "get_command_output": ["ok"],
  "grep": ["ok"],
  "kill_command": ["ok"],
  "list_files": ["ok"],
  "list_projects": ["ok"],
  "palimpsest_capabilities": ["ok"],
  "palimpsest_change_apply": ["ok"],
  "palimpsest_change_discard": ["ok"],
  "palimpsest_change_inspect": ["ok"],
  "palimpsest_change_propose": ["ok"],
  "palimpsest_changes_since": ["ok"],
  "palimpsest_check_run": ["ok"],
  "palimpsest_context_build": ["ok"],
  "palimpsest_diff_versions": ["ok"],
  "palimpsest_edit_plan": ["ok"],
  "palimpsest_export_target": ["ok"],
  "palimpsest_file_history": ["ok"],
  "palimpsest_find_occurrences": ["ok"],
  "palimpsest_get_attempt_log": ["ok"],
  "palimpsest_get_manifest_ledger": ["ok"],
  "palimpsest_get_target": ["ok"],
  "palimpsest_get_target_activity": ["ok"],
  "palimpsest_graph_query": ["ok"],
  "palimpsest_handle_upload": ["ok"],
  "palimpsest_impact_analyze": ["ok"],
  "palimpsest_initialize_target": ["ok"],
  "palimpsest_list_sessions": ["ok"],
  "palimpsest_node_find": ["ok"],
  "palimpsest_node_get": ["ok"],
  "palimpsest_observe_scope": ["candidates","observed","observed_batch","scope_page"],
  "palimpsest_open_snapshot": ["ok"],
  "palimpsest_preview": ["accepted","rejected"],
  "palimpsest_prove_consistency": ["ok"],
  "palimpsest_prove_event": ["ok"],
  "palimpsest_read_lines": ["ok"],
  "palimpsest_read_snapshot_file": ["ok"],
  "palimpsest_read_target": ["ok"],
  "palimpsest_relocate_range": ["ok"],
  "palimpsest_replay": ["success","failed"],
  "palimpsest_save": ["saved"],
  "palimpsest_search_targets": ["ok"],
  "palimpsest_session_activity": ["ok"],
  "palimpsest_snapshot_status": ["ok"],
  "palimpsest_submit_edits": ["accepted"],
  "palimpsest_submit_observed_operations": ["accepted"],
  "palimpsest_submit_operations": ["accepted"],
  "palimpsest_submit_replacement": ["accepted"],
  "palimpsest_undo_attempt": ["accepted"],
  "palimpsest_undo_edit": ["accepted"],
  "palimpsest_workspace_as_of": ["ok"],
  "palimpsest_workspace_refresh": ["refreshed","in_sync"],
  "palimpsest_workspace_status": ["ok"],
  "protocol/capabilities": ["ok"],
  "protocol/client": ["ok"],
  "protocol/instructions": ["ok"],
  "protocol/schemas": ["ok"],
  "query/catalog": ["ok"],
  "read_file": ["ok"],
  "run_command": ["ok"],
  "send_command_input": ["ok"],
  "set_active_project": ["ok"],
  "start_command": ["ok"],
  "workspace/open": ["ok"],
  "workspace/status": ["ok"],
  "write_file": ["ok"],
};

const isProtocolMethod = (value: unknown): value is ProtocolMethod => PROTOCOL_METHODS.some((m) => m === value);

/** One request line for a protocol method, ASCII only. */
export function encodeProtocolRequest<M extends ProtocolMethod>(id: number | string, method: M, params: ProtocolParams[M]): string {
  if (!isProtocolMethod(method)) throw new TypeError(`unknown protocol method ${String(method)}`);
  return encodeLine({ jsonrpc: '2.0', id, method, params });
}

/** A protocol method answered for another protocol version than this client's. */
export class ProtocolMismatch extends Error {
  constructor(readonly method: string, readonly found: unknown) {
    super(`${method} answered for ${String(found)}; this client speaks ${PROTOCOL_VERSION}`);
  }
}

/** success: the method did what was asked; refusal: another of its statuses (a result, or error.data; code: its code or failure_reason); error: no answer. */
export type Answer =
  | { kind: 'success'; id: number | string | null; status: string; result: Record<string, unknown> }
  | { kind: 'refusal'; id: number | string | null; status: string; code?: string; result: Record<string, unknown> }
  | { kind: 'error'; id: number | string | null; error: RpcError };

const isWorkspaceMethod = (value: AnyMethod): value is WorkspaceMethod => Object.hasOwn(WORKSPACE_METHODS, value);
const statusesOf = (method: AnyMethod): readonly string[] =>
  isProtocolMethod(method) ? ['ok', 'invalid_argument'] : RESULT_STATUSES[isWorkspaceMethod(method) ? WORKSPACE_METHODS[method] : method];
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A refusal's code: its code, else its failure_reason (a recorded rejection names why by that). */
function refusalCode(result: Record<string, unknown>): { code?: string } {
  const code = result.code ?? result.failure_reason;
  return typeof code === 'string' ? { code } : {};
}

/** Reads one response line; method: the request's (needed to read a result, not an error). Checks a protocol method's version. */
export function decodeAnswer(line: string, method?: AnyMethod): Answer {
  const msg: unknown = JSON.parse(line);
  if (!isObject(msg) || msg.jsonrpc !== '2.0') throw new TypeError('not a JSON-RPC 2.0 response');
  const id = typeof msg.id === 'number' || typeof msg.id === 'string' ? msg.id : null;
  if (isObject(msg.error)) {
    const { code, message, data } = msg.error;
    if (typeof code !== 'number' || typeof message !== 'string') throw new TypeError('error without a code and a message');
    if (method && isObject(data) && typeof data.status === 'string' && statusesOf(method).includes(data.status)) {
      return { kind: 'refusal', id, status: data.status, ...refusalCode(data), result: data };
    }
    return { kind: 'error', id, error: { code, message, ...(isObject(data) ? { data } : {}) } };
  }
  const result = msg.result;
  if (!isObject(result) || typeof result.status !== 'string') throw new TypeError('a result is an object with a status');
  if (!method) throw new TypeError('a result is read for the method that was called');
  if (SUCCESS_STATUSES[method].includes(result.status)) {
    if (isProtocolMethod(method) && (result.protocol !== PROTOCOL_VERSION || result.schema !== PROTOCOL_RESULT_SCHEMA)) throw new ProtocolMismatch(method, result.protocol);
    return { kind: 'success', id, status: result.status, result };
  }
  if (statusesOf(method).includes(result.status)) {
    return { kind: 'refusal', id, status: result.status, ...refusalCode(result), result };
  }
  throw new TypeError(`${method} never answers status ${result.status}`);
}
