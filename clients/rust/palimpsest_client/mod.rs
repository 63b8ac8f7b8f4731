// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.
//! Request/result helpers for `palimpsest serve` (palimpsest.json-lines.v1).
//!
//! Pure: they encode requests and decode response lines, and perform no I/O; the host owns the
//! process and its streams. std only: add this folder to a crate's src/ and declare `mod palimpsest_client;`.
#![allow(dead_code)]

mod json;
pub use json::Json;

pub const PROTOCOL_VERSION: &str = "palimpsest.json-lines.v1";
pub const PROTOCOL_RESULT_SCHEMA: &str = "palimpsest.protocol-result.v1";
pub const JSONRPC_VERSION: &str = "2.0";
pub const MAX_ID_UTF8_BYTES: usize = 128;

/// One method: protocol (a method of the protocol itself) or a catalog operation; read_only: served by
/// the read-only profile; argument names; every status it answers with, and those that mean success.
#[derive(Debug)]
pub struct Method {
    pub name: &'static str,
    pub protocol: bool,
    pub read_only: bool,
    pub required: &'static [&'static str],
    pub allowed: &'static [&'static str],
    pub statuses: &'static [&'static str],
    pub success: &'static [&'static str],
}

/// Every method, sorted by name.
pub const METHODS: &[Method] = &[
    Method { name: "edit_file", protocol: false, read_only: false,
        required: &["path", "oldString", "newString"], allowed: &["path", "oldString", "newString", "near_line", "detail", "project", "client_request_id"],
        statuses: &["ok", "rejected", "partial", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "get_active_project", protocol: false, read_only: true,
        required: &[], allowed: &[],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "get_command_output", protocol: false, read_only: true,
        required: &["processId"], allowed: &["processId", "cursor", "waitMs", "project"],
        statuses: &["ok", "rejected", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "grep", protocol: false, read_only: true,
        required: &["pattern"], allowed: &["pattern", "path", "glob", "caseInsensitive", "maxResults", "project"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "kill_command", protocol: false, read_only: false,
        required: &["processId"], allowed: &["processId", "project", "client_request_id"],
        statuses: &["ok", "rejected", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "list_files", protocol: false, read_only: true,
        required: &[], allowed: &["path", "recursive", "glob", "project"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "list_projects", protocol: false, read_only: true,
        required: &[], allowed: &[],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_capabilities", protocol: false, read_only: true,
        required: &[], allowed: &["detail"],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_change_apply", protocol: false, read_only: false,
        required: &["candidate", "expected_candidate_version", "request_id"], allowed: &["candidate", "expected_candidate_version", "request_id", "require_checks"],
        statuses: &["ok", "error", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_change_discard", protocol: false, read_only: false,
        required: &["candidate"], allowed: &["candidate", "expected_candidate_version"],
        statuses: &["ok", "error", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_change_inspect", protocol: false, read_only: true,
        required: &["candidate"], allowed: &["candidate", "include", "targets", "context_lines"],
        statuses: &["ok", "error", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_change_propose", protocol: false, read_only: false,
        required: &["request_id", "base", "operations"], allowed: &["request_id", "base", "operations", "intent", "candidate", "expected_candidate_version", "checks"],
        statuses: &["ok", "error", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_changes_since", protocol: false, read_only: true,
        required: &[], allowed: &["target_file_id", "from_version", "from_position", "limit", "max_inserted_code_points", "min_position"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_check_run", protocol: false, read_only: false,
        required: &["candidate", "checks"], allowed: &["candidate", "checks"],
        statuses: &["ok", "error", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_context_build", protocol: false, read_only: true,
        required: &["focus", "purpose"], allowed: &["focus", "purpose", "expand", "snapshot", "limits"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_diff_versions", protocol: false, read_only: true,
        required: &["target_file_id", "from"], allowed: &["target_file_id", "from", "to", "start_hunk", "max_chars", "attempts_limit", "after_sequence"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_edit_plan", protocol: false, read_only: true,
        required: &["base", "operations"], allowed: &["base", "operations", "intent"],
        statuses: &["ok", "error", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_export_target", protocol: false, read_only: true,
        required: &["target_file_id"], allowed: &["target_file_id", "format", "as_of"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_file_history", protocol: false, read_only: true,
        required: &["path"], allowed: &["path", "before_version", "limit", "min_position"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_find_occurrences", protocol: false, read_only: true,
        required: &["target_file_id", "text"], allowed: &["target_file_id", "text", "context_chars", "start_occurrence", "max_results", "as_of"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_get_attempt_log", protocol: false, read_only: true,
        required: &["target_file_id"], allowed: &["target_file_id", "limit", "before_sequence", "status", "content_hash", "client_request_id", "include_content", "detail", "min_position"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_get_manifest_ledger", protocol: false, read_only: true,
        required: &["target_file_id"], allowed: &["target_file_id", "include_previous_cycles", "limit", "before_sequence", "min_position"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_get_target", protocol: false, read_only: true,
        required: &["target_file_id"], allowed: &["target_file_id", "as_of"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_get_target_activity", protocol: false, read_only: true,
        required: &[], allowed: &["target_file_id", "window_minutes", "until", "min_position", "max_wait_ms"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_graph_query", protocol: false, read_only: true,
        required: &["from", "mode"], allowed: &["from", "mode", "to", "layers", "edge_kinds", "transitive", "cursor", "snapshot", "limits"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_handle_upload", protocol: false, read_only: false,
        required: &["filename", "content"], allowed: &["filename", "content", "content_type", "project_id", "from_workspace"],
        statuses: &["ok", "invalid_argument", "not_found"], success: &["ok"] },
    Method { name: "palimpsest_impact_analyze", protocol: false, read_only: true,
        required: &["targets"], allowed: &["targets", "direction", "layers", "snapshot", "limits"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_initialize_target", protocol: false, read_only: false,
        required: &["filename"], allowed: &["filename", "content", "content_type", "project_id", "from_workspace", "publish"],
        statuses: &["ok", "invalid_argument", "not_found"], success: &["ok"] },
    Method { name: "palimpsest_list_sessions", protocol: false, read_only: true,
        required: &[], allowed: &["before_position", "limit"],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_node_find", protocol: false, read_only: true,
        required: &["query"], allowed: &["query", "kind", "path", "limit", "snapshot", "limits"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_node_get", protocol: false, read_only: true,
        required: &["nodes"], allowed: &["nodes", "include", "snapshot", "limits"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_observe_scope", protocol: false, read_only: true,
        required: &["target_file_id"], allowed: &["target_file_id", "query", "symbol_name", "kind", "start_line", "observation_id", "offset", "max_chars", "include_line_starts", "selections"],
        statuses: &["candidates", "observed", "observed_batch", "scope_page", "not_found", "ambiguous", "rejected", "unsupported", "invalid_argument"], success: &["candidates", "observed", "observed_batch", "scope_page"] },
    Method { name: "palimpsest_open_snapshot", protocol: false, read_only: true,
        required: &[], allowed: &["snapshot"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_preview", protocol: false, read_only: true,
        required: &["target_file_id", "format"], allowed: &["target_file_id", "format", "expected_target_version", "expected_current_hash", "intent", "edits", "operations", "replacement"],
        statuses: &["accepted", "rejected", "invalid_argument", "not_found"], success: &["accepted", "rejected"] },
    Method { name: "palimpsest_prove_consistency", protocol: false, read_only: true,
        required: &[], allowed: &["first_size", "second_size"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_prove_event", protocol: false, read_only: true,
        required: &["global_position"], allowed: &["global_position", "checkpoint_size"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_read_lines", protocol: false, read_only: true,
        required: &["target_file_id"], allowed: &["target_file_id", "start_line", "end_line", "offset", "max_chars", "include_line_starts", "as_of"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_read_snapshot_file", protocol: false, read_only: true,
        required: &["snapshot", "path"], allowed: &["snapshot", "path", "offset", "limit"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_read_target", protocol: false, read_only: true,
        required: &["target_file_id"], allowed: &["target_file_id", "start", "length", "as_of"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_relocate_range", protocol: false, read_only: true,
        required: &[], allowed: &["target_file_id", "version", "start", "end", "observation_id"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_replay", protocol: false, read_only: true,
        required: &["target_file_id"], allowed: &["target_file_id"],
        statuses: &["success", "failed", "not_found", "invalid_argument"], success: &["success", "failed"] },
    Method { name: "palimpsest_save", protocol: false, read_only: false,
        required: &["target_file_id"], allowed: &["target_file_id", "expected_target_version", "expected_current_hash", "export_after_save", "sync_workspace", "workspace_eol_format"],
        statuses: &["saved", "rejected", "partial", "not_found", "invalid_argument"], success: &["saved"] },
    Method { name: "palimpsest_search_targets", protocol: false, read_only: true,
        required: &["query"], allowed: &["query", "limit", "offset", "min_position", "max_wait_ms"],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_session_activity", protocol: false, read_only: true,
        required: &["correlation_id"], allowed: &["correlation_id", "after_position", "limit"],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_snapshot_status", protocol: false, read_only: true,
        required: &[], allowed: &["limit"],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_submit_edits", protocol: false, read_only: false,
        required: &["target_file_id", "intent", "edits"], allowed: &["target_file_id", "intent", "expected_target_version", "expected_current_hash", "source", "parent_attempt_id", "attempt", "client_request_id", "include_correlation_id", "rebase", "edits"],
        statuses: &["accepted", "rejected", "partial", "invalid_argument", "not_found"], success: &["accepted"] },
    Method { name: "palimpsest_submit_observed_operations", protocol: false, read_only: false,
        required: &["target_file_id", "intent"], allowed: &["target_file_id", "intent", "expected_target_version", "expected_current_hash", "source", "parent_attempt_id", "attempt", "client_request_id", "include_correlation_id", "observation_id", "expected_node_version", "operations", "observation_bundle_id", "groups"],
        statuses: &["accepted", "rejected", "partial", "invalid_argument", "not_found"], success: &["accepted"] },
    Method { name: "palimpsest_submit_operations", protocol: false, read_only: false,
        required: &["target_file_id", "intent", "operations"], allowed: &["target_file_id", "intent", "expected_target_version", "expected_current_hash", "source", "parent_attempt_id", "attempt", "client_request_id", "include_correlation_id", "rebase", "operations"],
        statuses: &["accepted", "rejected", "partial", "invalid_argument", "not_found"], success: &["accepted"] },
    Method { name: "palimpsest_submit_replacement", protocol: false, read_only: false,
        required: &["target_file_id", "intent", "replacement"], allowed: &["target_file_id", "intent", "expected_target_version", "expected_current_hash", "source", "parent_attempt_id", "attempt", "client_request_id", "include_correlation_id", "replacement"],
        statuses: &["accepted", "rejected", "partial", "invalid_argument", "not_found"], success: &["accepted"] },
    Method { name: "palimpsest_undo_attempt", protocol: false, read_only: false,
        required: &["target_file_id", "attempt_id"], allowed: &["target_file_id", "attempt_id", "client_request_id"],
        statuses: &["accepted", "rejected", "partial", "not_found", "invalid_argument"], success: &["accepted"] },
    Method { name: "palimpsest_undo_edit", protocol: false, read_only: false,
        required: &["path", "attempt_id"], allowed: &["path", "attempt_id"],
        statuses: &["accepted", "rejected", "partial", "not_found", "invalid_argument"], success: &["accepted"] },
    Method { name: "palimpsest_workspace_as_of", protocol: false, read_only: true,
        required: &["as_of"], allowed: &["as_of", "limit", "cursor"],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "palimpsest_workspace_refresh", protocol: false, read_only: false,
        required: &["target_file_id"], allowed: &["target_file_id", "expected_target_version", "expected_current_hash"],
        statuses: &["refreshed", "in_sync", "rejected", "not_found", "invalid_argument"], success: &["refreshed", "in_sync"] },
    Method { name: "palimpsest_workspace_status", protocol: false, read_only: true,
        required: &[], allowed: &["path_prefix", "state", "limit", "cursor"],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "protocol/capabilities", protocol: true, read_only: true,
        required: &[], allowed: &[],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "protocol/client", protocol: true, read_only: true,
        required: &["language"], allowed: &["language"],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "protocol/instructions", protocol: true, read_only: true,
        required: &[], allowed: &[],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "protocol/schemas", protocol: true, read_only: true,
        required: &[], allowed: &[],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "query/catalog", protocol: true, read_only: true,
        required: &[], allowed: &[],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "read_file", protocol: false, read_only: true,
        required: &["path"], allowed: &["path", "offset", "limit", "as_of", "project"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "run_command", protocol: false, read_only: false,
        required: &["command"], allowed: &["command", "cwd", "timeoutMs", "project", "client_request_id"],
        statuses: &["ok", "rejected", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "send_command_input", protocol: false, read_only: false,
        required: &["processId", "data"], allowed: &["processId", "data", "newline", "project", "client_request_id"],
        statuses: &["ok", "rejected", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "set_active_project", protocol: false, read_only: true,
        required: &["project"], allowed: &["project"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "start_command", protocol: false, read_only: false,
        required: &["command"], allowed: &["command", "cwd", "project", "client_request_id"],
        statuses: &["ok", "rejected", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "workspace/open", protocol: false, read_only: true,
        required: &[], allowed: &["snapshot"],
        statuses: &["ok", "not_found", "invalid_argument"], success: &["ok"] },
    Method { name: "workspace/status", protocol: false, read_only: true,
        required: &[], allowed: &["limit"],
        statuses: &["ok", "invalid_argument"], success: &["ok"] },
    Method { name: "write_file", protocol: false, read_only: false,
        required: &["path", "content"], allowed: &["path", "content", "project", "client_request_id"],
        statuses: &["ok", "rejected", "partial", "not_found", "invalid_argument"], success: &["ok"] },
];

/// The method named, if this client knows it.
pub fn method(name: &str) -> Option<&'static Method> {
    METHODS.binary_search_by(|m| m.name.cmp(name)).ok().map(|i| &METHODS[i])
}

/// A request this client will not encode, or a response line it cannot read. code: unknown_method,
/// invalid_id, invalid_params, unknown_argument, missing_argument, invalid_json, not_a_response,
/// method_needed, unexpected_status, protocol_mismatch.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientError {
    pub code: String,
    pub message: String,
}

impl ClientError {
    fn new(code: &str, message: &str) -> ClientError {
        ClientError { code: code.to_string(), message: message.to_string() }
    }
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ClientError {}

/// A request id: an unsigned 64-bit integer, or a string of 1 to 128 UTF-8 bytes without control characters.
#[derive(Clone, Debug, PartialEq)]
pub enum Id {
    Number(u64),
    Str(String),
}

pub fn method_info(name: &str) -> Result<&'static Method, ClientError> {
    method(name).ok_or_else(|| ClientError::new("unknown_method", &format!("{} is not a method of {}", name, PROTOCOL_VERSION)))
}

/// One request line, ASCII only, ending in LF: the method must be known, params an object of its arguments.
pub fn encode_request(id: &Id, name: &str, params: &Json) -> Result<String, ClientError> {
    let info = method_info(name)?;
    let id_json = match id {
        Id::Number(n) => Json::Number(n.to_string()),
        Id::Str(s) => {
            if s.is_empty() || s.len() > MAX_ID_UTF8_BYTES || s.chars().any(|c| c.is_control()) {
                return Err(ClientError::new("invalid_id", "a string id has 1 to 128 UTF-8 bytes and no control characters"));
            }
            Json::Str(s.clone())
        }
    };
    let pairs = match params {
        Json::Object(pairs) => pairs,
        _ => return Err(ClientError::new("invalid_params", "params is an object of named arguments")),
    };
    if let Some((k, _)) = pairs.iter().find(|(k, _)| !info.allowed.contains(&k.as_str())) {
        return Err(ClientError::new("unknown_argument", &format!("{} takes no argument {}", name, k)));
    }
    if let Some(k) = info.required.iter().find(|k| !pairs.iter().any(|(p, _)| p == *k)) {
        return Err(ClientError::new("missing_argument", &format!("{} needs argument {}", name, k)));
    }
    let envelope = Json::object(vec![("jsonrpc", Json::str(JSONRPC_VERSION)), ("id", id_json), ("method", Json::str(name)), ("params", params.clone())]);
    Ok(format!("{}\n", envelope.to_json()))
}

/// success: the method did what was asked; refusal: it answered with another of its statuses (a result,
/// or error.data of -32602/-32000), code being its code or failure_reason; error: a JSON-RPC error without an answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Success { status: String, result: Json },
    Refusal { status: String, code: Option<String>, result: Json },
    Error { code: i64, message: String, data: Option<Json> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    pub id: Json,
    pub answer: Answer,
}

/// A refusal's code: its code, else its failure_reason (a recorded rejection names why by that).
fn refusal_code(result: &Json) -> Option<String> {
    result.get("code").or_else(|| result.get("failure_reason")).and_then(Json::as_str).map(str::to_string)
}

fn check_protocol(name: &str, result: &Json) -> Result<(), ClientError> {
    let protocol = result.get("protocol").and_then(Json::as_str);
    if protocol != Some(PROTOCOL_VERSION) || result.get("schema").and_then(Json::as_str) != Some(PROTOCOL_RESULT_SCHEMA) {
        let found = protocol.unwrap_or("none");
        return Err(ClientError::new("protocol_mismatch", &format!("{} answered for {}; this client speaks {}", name, found, PROTOCOL_VERSION)));
    }
    Ok(())
}

fn decode_error(id: Json, error: &Json, info: Option<&Method>) -> Result<Response, ClientError> {
    let code = error.get("code").and_then(Json::as_i64);
    let message = error.get("message").and_then(Json::as_str);
    let (code, message) = match (code, message) {
        (Some(c), Some(m)) => (c, m.to_string()),
        _ => return Err(ClientError::new("not_a_response", "error without an integer code and a message")),
    };
    let data = error.get("data").cloned();
    let status = data.as_ref().and_then(|d| d.get("status")).and_then(Json::as_str).map(str::to_string);
    if let (Some(info), Some(status), Some(data)) = (info, status, data.as_ref()) {
        if info.statuses.contains(&status.as_str()) {
            return Ok(Response { id, answer: Answer::Refusal { status, code: refusal_code(data), result: data.clone() } });
        }
    }
    Ok(Response { id, answer: Answer::Error { code, message, data } })
}

/// Reads one response line; name: the request's method (needed to read a result, not an error).
pub fn decode_response(line: &str, name: Option<&str>) -> Result<Response, ClientError> {
    let msg = Json::parse(line)?;
    if msg.get("jsonrpc").and_then(Json::as_str) != Some(JSONRPC_VERSION) {
        return Err(ClientError::new("not_a_response", "not a JSON-RPC 2.0 response"));
    }
    let id = msg.get("id").cloned().unwrap_or(Json::Null);
    let info = match name {
        Some(n) => Some(method_info(n)?),
        None => None,
    };
    if let Some(error) = msg.get("error") {
        return decode_error(id, error, info);
    }
    let result = msg.get("result").cloned().unwrap_or(Json::Null);
    let status = match result.get("status").and_then(Json::as_str) {
        Some(s) => s.to_string(),
        None => return Err(ClientError::new("not_a_response", "a result is an object with a status")),
    };
    let info = info.ok_or_else(|| ClientError::new("method_needed", "a result is read for the method that was called"))?;
    if info.success.contains(&status.as_str()) {
        if info.protocol {
            check_protocol(info.name, &result)?;
        }
        return Ok(Response { id, answer: Answer::Success { status, result } });
    }
    if info.statuses.contains(&status.as_str()) {
        return Ok(Response { id, answer: Answer::Refusal { status, code: refusal_code(&result), result } });
    }
    Err(ClientError::new("unexpected_status", &format!("{} never answers status {}", info.name, status)))
}
