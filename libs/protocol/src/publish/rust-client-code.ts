/** The functions of clients/rust/palimpsest_client/mod.rs: the same for every catalog (the method table before them is generated). */
export const RUST_CLIENT_CODE = String.raw`/// The method named, if this client knows it.
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
`;
