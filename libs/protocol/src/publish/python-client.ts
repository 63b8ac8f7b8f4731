import { PROTOCOL_RESULT_SCHEMA, PROTOCOL_VERSION } from '../protocol-methods/protocol-methods';
import { wireMethods, type WireMethod } from '../protocol-methods/wire-methods';

export const PYTHON_CLIENT_PATH = 'clients/python/palimpsest_client.py';

const tuple = (items: readonly string[]) => `(${items.map((s) => JSON.stringify(s)).join(', ')}${items.length === 1 ? ',' : ''})`;
const bool = (b: boolean) => (b ? 'True' : 'False');

function methodLine(m: WireMethod): string {
  return `    ${JSON.stringify(m.name)}: Method(${JSON.stringify(m.kind)}, ${bool(m.readOnly)}, ${tuple(m.required)}, ${tuple(m.allowed)}, ${tuple(m.statuses)}, ${tuple(m.success)}),`;
}

/**
 * clients/python/palimpsest_client.py: pure request/result helpers for `palimpsest serve`, standard
 * library only. The method table is the catalog's, generated; the functions below it are the same for
 * every catalog.
 */
export function pythonClientSource(): string {
  return [
    '# Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.',
    `"""Request/result helpers for \`palimpsest serve\` (${PROTOCOL_VERSION}).`,
    '',
    'Pure: they encode requests and decode response lines, and perform no I/O; the host owns the process',
    'and its streams. Standard library only.',
    '"""',
    'import json',
    'from collections import namedtuple',
    '',
    `PROTOCOL_VERSION = ${JSON.stringify(PROTOCOL_VERSION)}`,
    `PROTOCOL_RESULT_SCHEMA = ${JSON.stringify(PROTOCOL_RESULT_SCHEMA)}`,
    'JSONRPC_VERSION = "2.0"',
    'MAX_ID_UTF8_BYTES = 128',
    '',
    '# kind: "protocol" or "operation"; read_only: served by the read-only profile; required and allowed',
    '# argument names; every status the method answers with, and those that mean success.',
    'Method = namedtuple("Method", "kind read_only required allowed statuses success")',
    '',
    'METHODS = {',
    ...wireMethods().map(methodLine),
    '}',
    'METHOD_NAMES = tuple(METHODS)',
    'READ_ONLY_METHODS = tuple(name for name, m in METHODS.items() if m.read_only)',
    '',
    '',
    PYTHON_FUNCTIONS,
  ].join('\n');
}

const PYTHON_FUNCTIONS = `class ClientError(ValueError):
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
    return json.dumps(request(id, method, params), ensure_ascii=True, separators=(",", ":")) + "\\n"


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
`;
