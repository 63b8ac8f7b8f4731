# Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.
"""Request/result helpers for `palimpsest serve` (palimpsest.json-lines.v1).

Pure: they encode requests and decode response lines, and perform no I/O; the host owns the process
and its streams. Standard library only.
"""
import json
from collections import namedtuple

PROTOCOL_VERSION = "palimpsest.json-lines.v1"
PROTOCOL_RESULT_SCHEMA = "palimpsest.protocol-result.v1"
JSONRPC_VERSION = "2.0"
MAX_ID_UTF8_BYTES = 128

# kind: "protocol" or "operation"; read_only: served by the read-only profile; required and allowed
# argument names; every status the method answers with, and those that mean success.
Method = namedtuple("Method", "kind read_only required allowed statuses success")

METHODS = {
    "edit_file": Method("operation", False, ("path", "oldString", "newString"), ("path", "oldString", "newString", "near_line", "detail", "project", "client_request_id"), ("ok", "rejected", "partial", "not_found", "invalid_argument"), ("ok",)),
    "get_active_project": Method("operation", True, (), (), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "get_command_output": Method("operation", True, ("processId",), ("processId", "cursor", "waitMs", "project"), ("ok", "rejected", "not_found", "invalid_argument"), ("ok",)),
    "grep": Method("operation", True, ("pattern",), ("pattern", "path", "glob", "caseInsensitive", "maxResults", "project"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "kill_command": Method("operation", False, ("processId",), ("processId", "project", "client_request_id"), ("ok", "rejected", "not_found", "invalid_argument"), ("ok",)),
    "list_files": Method("operation", True, (), ("path", "recursive", "glob", "project"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "list_projects": Method("operation", True, (), (), ("ok", "invalid_argument"), ("ok",)),
    "palimpsest_capabilities": Method("operation", True, (), ("detail",), ("ok", "invalid_argument"), ("ok",)),
    "palimpsest_change_apply": Method("operation", False, ("candidate", "expected_candidate_version", "request_id"), ("candidate", "expected_candidate_version", "request_id", "require_checks"), ("ok", "error", "invalid_argument"), ("ok",)),
    "palimpsest_change_discard": Method("operation", False, ("candidate",), ("candidate", "expected_candidate_version"), ("ok", "error", "invalid_argument"), ("ok",)),
    "palimpsest_change_inspect": Method("operation", True, ("candidate",), ("candidate", "include", "targets", "context_lines"), ("ok", "error", "invalid_argument"), ("ok",)),
    "palimpsest_change_propose": Method("operation", False, ("request_id", "base", "operations"), ("request_id", "base", "operations", "intent", "candidate", "expected_candidate_version", "checks"), ("ok", "error", "invalid_argument"), ("ok",)),
    "palimpsest_changes_since": Method("operation", True, (), ("target_file_id", "from_version", "from_position", "limit", "max_inserted_code_points", "min_position"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_check_run": Method("operation", False, ("candidate", "checks"), ("candidate", "checks"), ("ok", "error", "invalid_argument"), ("ok",)),
    "palimpsest_context_build": Method("operation", True, ("focus", "purpose"), ("focus", "purpose", "expand", "snapshot", "limits"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_diff_versions": Method("operation", True, ("target_file_id", "from"), ("target_file_id", "from", "to", "start_hunk", "max_chars", "attempts_limit", "after_sequence"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_edit_plan": Method("operation", True, ("base", "operations"), ("base", "operations", "intent"), ("ok", "error", "invalid_argument"), ("ok",)),
    "palimpsest_export_target": Method("operation", True, ("target_file_id",), ("target_file_id", "format", "as_of"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_file_history": Method("operation", True, ("path",), ("path", "before_version", "limit", "min_position"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_find_occurrences": Method("operation", True, ("target_file_id", "text"), ("target_file_id", "text", "context_chars", "start_occurrence", "max_results", "as_of"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_get_attempt_log": Method("operation", True, ("target_file_id",), ("target_file_id", "limit", "before_sequence", "status", "content_hash", "client_request_id", "include_content", "detail", "min_position"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_get_manifest_ledger": Method("operation", True, ("target_file_id",), ("target_file_id", "include_previous_cycles", "limit", "before_sequence", "min_position"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_get_target": Method("operation", True, ("target_file_id",), ("target_file_id", "as_of"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_get_target_activity": Method("operation", True, (), ("target_file_id", "window_minutes", "until", "min_position", "max_wait_ms"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_graph_query": Method("operation", True, ("from", "mode"), ("from", "mode", "to", "layers", "edge_kinds", "transitive", "cursor", "snapshot", "limits"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_handle_upload": Method("operation", False, ("filename", "content"), ("filename", "content", "content_type", "project_id", "from_workspace"), ("ok", "invalid_argument", "not_found"), ("ok",)),
    "palimpsest_impact_analyze": Method("operation", True, ("targets",), ("targets", "direction", "layers", "snapshot", "limits"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_initialize_target": Method("operation", False, ("filename",), ("filename", "content", "content_type", "project_id", "from_workspace", "publish"), ("ok", "invalid_argument", "not_found"), ("ok",)),
    "palimpsest_list_sessions": Method("operation", True, (), ("before_position", "limit"), ("ok", "invalid_argument"), ("ok",)),
    "palimpsest_node_find": Method("operation", True, ("query",), ("query", "kind", "path", "limit", "snapshot", "limits"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_node_get": Method("operation", True, ("nodes",), ("nodes", "include", "snapshot", "limits"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_observe_scope": Method("operation", True, ("target_file_id",), ("target_file_id", "query", "symbol_name", "kind", "start_line", "observation_id", "offset", "max_chars", "include_line_starts", "selections"), ("candidates", "observed", "observed_batch", "scope_page", "not_found", "ambiguous", "rejected", "unsupported", "invalid_argument"), ("candidates", "observed", "observed_batch", "scope_page")),
    "palimpsest_open_snapshot": Method("operation", True, (), ("snapshot",), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_preview": Method("operation", True, ("target_file_id", "format"), ("target_file_id", "format", "expected_target_version", "expected_current_hash", "intent", "edits", "operations", "replacement"), ("accepted", "rejected", "invalid_argument", "not_found"), ("accepted", "rejected")),
    "palimpsest_prove_consistency": Method("operation", True, (), ("first_size", "second_size"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_prove_event": Method("operation", True, ("global_position",), ("global_position", "checkpoint_size"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_read_lines": Method("operation", True, ("target_file_id",), ("target_file_id", "start_line", "end_line", "offset", "max_chars", "include_line_starts", "as_of"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_read_snapshot_file": Method("operation", True, ("snapshot", "path"), ("snapshot", "path", "offset", "limit"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_read_target": Method("operation", True, ("target_file_id",), ("target_file_id", "start", "length", "as_of"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_relocate_range": Method("operation", True, (), ("target_file_id", "version", "start", "end", "observation_id"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "palimpsest_replay": Method("operation", True, ("target_file_id",), ("target_file_id",), ("success", "failed", "not_found", "invalid_argument"), ("success", "failed")),
    "palimpsest_save": Method("operation", False, ("target_file_id",), ("target_file_id", "expected_target_version", "expected_current_hash", "export_after_save", "sync_workspace", "workspace_eol_format"), ("saved", "rejected", "partial", "not_found", "invalid_argument"), ("saved",)),
    "palimpsest_search_targets": Method("operation", True, ("query",), ("query", "limit", "offset", "min_position", "max_wait_ms"), ("ok", "invalid_argument"), ("ok",)),
    "palimpsest_session_activity": Method("operation", True, ("correlation_id",), ("correlation_id", "after_position", "limit"), ("ok", "invalid_argument"), ("ok",)),
    "palimpsest_snapshot_status": Method("operation", True, (), ("limit",), ("ok", "invalid_argument"), ("ok",)),
    "palimpsest_submit_edits": Method("operation", False, ("target_file_id", "intent", "edits"), ("target_file_id", "intent", "expected_target_version", "expected_current_hash", "source", "parent_attempt_id", "attempt", "client_request_id", "include_correlation_id", "rebase", "edits"), ("accepted", "rejected", "partial", "invalid_argument", "not_found"), ("accepted",)),
    "palimpsest_submit_observed_operations": Method("operation", False, ("target_file_id", "intent"), ("target_file_id", "intent", "expected_target_version", "expected_current_hash", "source", "parent_attempt_id", "attempt", "client_request_id", "include_correlation_id", "observation_id", "expected_node_version", "operations", "observation_bundle_id", "groups"), ("accepted", "rejected", "partial", "invalid_argument", "not_found"), ("accepted",)),
    "palimpsest_submit_operations": Method("operation", False, ("target_file_id", "intent", "operations"), ("target_file_id", "intent", "expected_target_version", "expected_current_hash", "source", "parent_attempt_id", "attempt", "client_request_id", "include_correlation_id", "rebase", "operations"), ("accepted", "rejected", "partial", "invalid_argument", "not_found"), ("accepted",)),
    "palimpsest_submit_replacement": Method("operation", False, ("target_file_id", "intent", "replacement"), ("target_file_id", "intent", "expected_target_version", "expected_current_hash", "source", "parent_attempt_id", "attempt", "client_request_id", "include_correlation_id", "replacement"), ("accepted", "rejected", "partial", "invalid_argument", "not_found"), ("accepted",)),
    "palimpsest_undo_attempt": Method("operation", False, ("target_file_id", "attempt_id"), ("target_file_id", "attempt_id", "client_request_id"), ("accepted", "rejected", "partial", "not_found", "invalid_argument"), ("accepted",)),
    "palimpsest_undo_edit": Method("operation", False, ("path", "attempt_id"), ("path", "attempt_id"), ("accepted", "rejected", "partial", "not_found", "invalid_argument"), ("accepted",)),
    "palimpsest_workspace_as_of": Method("operation", True, ("as_of",), ("as_of", "limit", "cursor"), ("ok", "invalid_argument"), ("ok",)),
    "palimpsest_workspace_refresh": Method("operation", False, ("target_file_id",), ("target_file_id", "expected_target_version", "expected_current_hash"), ("refreshed", "in_sync", "rejected", "not_found", "invalid_argument"), ("refreshed", "in_sync")),
    "palimpsest_workspace_status": Method("operation", True, (), ("path_prefix", "state", "limit", "cursor"), ("ok", "invalid_argument"), ("ok",)),
    "protocol/capabilities": Method("protocol", True, (), (), ("ok", "invalid_argument"), ("ok",)),
    "protocol/client": Method("protocol", True, ("language",), ("language",), ("ok", "invalid_argument"), ("ok",)),
    "protocol/instructions": Method("protocol", True, (), (), ("ok", "invalid_argument"), ("ok",)),
    "protocol/schemas": Method("protocol", True, (), (), ("ok", "invalid_argument"), ("ok",)),
    "query/catalog": Method("protocol", True, (), (), ("ok", "invalid_argument"), ("ok",)),
    "read_file": Method("operation", True, ("path",), ("path", "offset", "limit", "as_of", "project"), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "run_command": Method("operation", False, ("command",), ("command", "cwd", "timeoutMs", "project", "client_request_id"), ("ok", "rejected", "not_found", "invalid_argument"), ("ok",)),
    "send_command_input": Method("operation", False, ("processId", "data"), ("processId", "data", "newline", "project", "client_request_id"), ("ok", "rejected", "not_found", "invalid_argument"), ("ok",)),
    "set_active_project": Method("operation", True, ("project",), ("project",), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "start_command": Method("operation", False, ("command",), ("command", "cwd", "project", "client_request_id"), ("ok", "rejected", "not_found", "invalid_argument"), ("ok",)),
    "workspace/open": Method("operation", True, (), ("snapshot",), ("ok", "not_found", "invalid_argument"), ("ok",)),
    "workspace/status": Method("operation", True, (), ("limit",), ("ok", "invalid_argument"), ("ok",)),
    "write_file": Method("operation", False, ("path", "content"), ("path", "content", "project", "client_request_id"), ("ok", "rejected", "partial", "not_found", "invalid_argument"), ("ok",)),
}
METHOD_NAMES = tuple(METHODS)
READ_ONLY_METHODS = tuple(name for name, m in METHODS.items() if m.read_only)


class ClientError(ValueError):
    """A request this client will not encode, or a response line it cannot read."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class ProtocolMismatch(ClientError):
    """A protocol method answered for another protocol version than this client's."""


class Answer:
    """One decoded response. kind: "success", "refusal" (the operation answered with a status that is
    not a success, as a result or as error.data; code is its code or failure_reason) or "error" (a JSON-RPC error
    without an answer; code is the JSON-RPC code, data.code names the cause)."""

    __slots__ = ("kind", "id", "status", "code", "message", "result", "data")

    def __init__(self, kind, id, status=None, code=None, message=None, result=None, data=None):
        self.kind, self.id, self.status, self.code = kind, id, status, code
        self.message, self.result, self.data = message, result, data

    def __repr__(self):
        return f"Answer({self.kind!r}, id={self.id!r}, status={self.status!r}, code={self.code!r})"


def method_info(method):
    info = METHODS.get(method)
    if info is None:
        raise ClientError("unknown_method", f"{method!r} is not a method of {PROTOCOL_VERSION}")
    return info


def _check_id(id):
    if isinstance(id, bool) or not isinstance(id, (int, str)):
        raise ClientError("invalid_id", "an id is an unsigned 64-bit integer or a string")
    if isinstance(id, int) and not 0 <= id < 2**64:
        raise ClientError("invalid_id", "an integer id is between 0 and 2^64-1")
    if isinstance(id, str):
        if not id or len(id.encode("utf-8")) > MAX_ID_UTF8_BYTES:
            raise ClientError("invalid_id", f"a string id has 1 to {MAX_ID_UTF8_BYTES} UTF-8 bytes")
        if any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in id):
            raise ClientError("invalid_id", "a string id has no control characters")


def request(id, method, params=None):
    """The request object: the method must be known, params an object of its arguments."""
    info = method_info(method)
    _check_id(id)
    params = {} if params is None else params
    if not isinstance(params, dict):
        raise ClientError("invalid_params", "params is an object of named arguments")
    unknown = sorted(k for k in params if k not in info.allowed)
    if unknown:
        raise ClientError("unknown_argument", f"{method} takes no argument(s) {', '.join(unknown)}")
    missing = [k for k in info.required if k not in params]
    if missing:
        raise ClientError("missing_argument", f"{method} needs argument(s) {', '.join(missing)}")
    return {"jsonrpc": JSONRPC_VERSION, "id": id, "method": method, "params": params}


def encode_request(id, method, params=None):
    """One request line, ASCII only (every non-ASCII character escaped), ending in LF."""
    return json.dumps(request(id, method, params), ensure_ascii=True, separators=(",", ":")) + "\n"


def _refusal_code(result):
    code = result.get("code", result.get("failure_reason"))
    return code if isinstance(code, str) else None


def _check_protocol(method, result):
    if result.get("protocol") != PROTOCOL_VERSION or result.get("schema") != PROTOCOL_RESULT_SCHEMA:
        raise ProtocolMismatch(
            "protocol_mismatch",
            f"{method} answered for {result.get('protocol')!r}; this client speaks {PROTOCOL_VERSION}",
        )


def decode_response(line, method=None):
    """Reads one response line. method: the request's (needed to read a result; an error is read without)."""
    try:
        msg = json.loads(line)
    except ValueError as err:
        raise ClientError("invalid_json", f"not JSON: {err}") from None
    if not isinstance(msg, dict) or msg.get("jsonrpc") != JSONRPC_VERSION:
        raise ClientError("not_a_response", "not a JSON-RPC 2.0 response")
    id = msg.get("id")
    info = None if method is None else method_info(method)
    if "error" in msg:
        err = msg["error"]
        if not isinstance(err, dict) or isinstance(err.get("code"), bool) or not isinstance(err.get("code"), int) or not isinstance(err.get("message"), str):
            raise ClientError("not_a_response", "error without an integer code and a message")
        data = err.get("data")
        status = data.get("status") if isinstance(data, dict) else None
        if info is not None and status in info.statuses:
            return Answer("refusal", id, status=status, code=_refusal_code(data), message=err["message"], result=data)
        return Answer("error", id, code=err["code"], message=err["message"], data=data)
    result = msg.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("status"), str):
        raise ClientError("not_a_response", "a result is an object with a status")
    if info is None:
        raise ClientError("method_needed", "a result is read for the method that was called")
    status = result["status"]
    if status in info.success:
        if info.kind == "protocol":
            _check_protocol(method, result)
        return Answer("success", id, status=status, result=result)
    if status in info.statuses:
        return Answer("refusal", id, status=status, code=_refusal_code(result), result=result)
    raise ClientError("unexpected_status", f"{method} never answers status {status!r}")
