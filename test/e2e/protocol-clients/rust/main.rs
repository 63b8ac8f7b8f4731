//! Drives `palimpsest serve` through a real session with the generated Rust helpers (std only).
//! usage: rust_session <node> <palimpsest.js> <repository root>
//! Prints one line per answer, "<method> <kind> <status or code>"; panics on the first surprise.
//! The helpers do no I/O: this program owns the process and its pipes.
mod palimpsest_client;

use palimpsest_client::*;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

fn describe(method: Option<&str>, answer: &Answer) {
    let detail = match answer {
        Answer::Success { status, .. } => status.clone(),
        Answer::Refusal { status, code, .. } => format!("{}/{}", status, code.clone().unwrap_or_else(|| "None".into())),
        Answer::Error { code, .. } => code.to_string(),
    };
    let kind = match answer {
        Answer::Success { .. } => "success",
        Answer::Refusal { .. } => "refusal",
        Answer::Error { .. } => "error",
    };
    println!("{} {} {}", method.unwrap_or("-"), kind, detail);
}

impl Session {
    fn send(&mut self, line: &str, method: Option<&str>) -> Response {
        self.stdin.write_all(line.as_bytes()).expect("write a request");
        self.stdin.flush().expect("flush");
        let mut answer = String::new();
        self.stdout.read_line(&mut answer).expect("read a response");
        let response = decode_response(&answer, method).expect("a response this client reads");
        describe(method, &response.answer);
        response
    }
    fn call(&mut self, method: &str, params: Json) -> Json {
        self.next_id += 1;
        let line = encode_request(&Id::Number(self.next_id), method, &params).expect("a request this client encodes");
        let response = self.send(&line, Some(method));
        assert_eq!(response.id, Json::Number(self.next_id.to_string()), "the answer carries the request's id");
        match response.answer {
            Answer::Success { result, .. } | Answer::Refusal { result, .. } => result,
            Answer::Error { data, .. } => data.unwrap_or(Json::Null),
        }
    }
}

fn strings(value: Option<&Json>) -> Vec<String> {
    value.and_then(Json::as_array).unwrap_or(&[]).iter().filter_map(|v| v.as_str().map(str::to_string)).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut child = Command::new(&args[1]).arg(&args[2]).arg("serve").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("start palimpsest serve");
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut s = Session { child, stdin, stdout, next_id: 0 };
    let none = || Json::Object(vec![]);

    let caps = s.call("protocol/capabilities", none());
    let methods = strings(caps.get("payload").and_then(|p| p.get("methods")));
    let mut sorted = methods.clone();
    sorted.sort();
    assert_eq!(methods, sorted, "methods are sorted");
    assert!(methods.iter().all(|m| method(m).is_some()), "every served method is one this client knows");
    let schemas = s.call("protocol/schemas", none());
    match schemas.get("payload").and_then(|p| p.get("methods")) {
        Some(Json::Object(pairs)) => assert_eq!(pairs.len(), METHODS.len(), "a request schema for every method"),
        _ => panic!("protocol/schemas without methods"),
    }
    s.call("protocol/instructions", none());
    let client = s.call("protocol/client", Json::object(vec![("language", Json::str("rust"))]));
    let files = client.get("payload").and_then(|p| p.get("files")).and_then(Json::as_array).expect("files");
    assert_eq!(files.len(), 2, "mod.rs and json.rs");
    for file in files {
        let path = file.get("path").and_then(Json::as_str).expect("a path");
        let own = std::fs::read_to_string(std::path::Path::new(&args[3]).join(path)).expect("read the client module");
        assert_eq!(file.get("content").and_then(Json::as_str), Some(own.as_str()), "protocol/client answers this very module");
    }
    let queries = s.call("query/catalog", none());
    for q in queries.get("payload").and_then(|p| p.get("queries")).and_then(Json::as_array).expect("queries") {
        assert!(method(q.get("name").and_then(Json::as_str).unwrap()).unwrap().read_only, "queries only read");
    }

    let target = s.call("palimpsest_initialize_target", Json::object(vec![("filename", Json::str("doc.md")), ("content", Json::str("alpha beta alpha\n"))]));
    let id = target.get("target_file_id").cloned().expect("a target id");
    let edit = |replace: &str, occurrence: Option<i64>| {
        let mut e = vec![("match", Json::str("alpha")), ("replace", Json::str(replace))];
        if let Some(n) = occurrence {
            e.push(("occurrence_index", Json::int(n)));
        }
        Json::object(vec![("target_file_id", id.clone()), ("intent", Json::str("rename")), ("expected_target_version", Json::int(0)), ("edits", Json::Array(vec![Json::object(e)]))])
    };
    s.call("palimpsest_submit_edits", edit("gamma", None));
    let accepted = s.call("palimpsest_submit_edits", edit("gamma\u{2028}", Some(2)));
    assert_eq!(accepted.get("version").and_then(Json::as_i64), Some(1), "the accepted edit made version 1");
    let read = s.call("palimpsest_read_target", Json::object(vec![("target_file_id", id.clone())]));
    assert_eq!(read.get("text").and_then(Json::as_str), Some("alpha beta gamma\u{2028}\n"), "non-ASCII text round-trips");
    s.call("palimpsest_get_target", Json::object(vec![("target_file_id", Json::str("00000000-0000-4000-8000-000000000000"))]));
    s.call("protocol/client", Json::object(vec![("language", Json::str("cobol"))]));
    s.send("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"palimpsest_frobnicate\"}\n", None);
    s.send("{not json}\n", None);

    let older = r#"{"jsonrpc":"2.0","id":1,"result":{"status":"ok","schema":"palimpsest.protocol-result.v1","protocol":"palimpsest.json-lines.v0","payload":{}}}"#;
    let refusals: Vec<(Result<(), ClientError>, &str)> = vec![
        (encode_request(&Id::Number(1), "palimpsest_sumbit_edits", &none()).map(|_| ()), "unknown_method"),
        (encode_request(&Id::Number(1), "protocol/client", &Json::object(vec![("language", Json::str("rust")), ("extra", Json::int(1))])).map(|_| ()), "unknown_argument"),
        (encode_request(&Id::Str(String::new()), "protocol/capabilities", &none()).map(|_| ()), "invalid_id"),
        (decode_response(older, Some("protocol/capabilities")).map(|_| ()), "protocol_mismatch"),
    ];
    for (outcome, code) in refusals {
        let err = outcome.expect_err("the client refuses");
        assert_eq!(err.code, code);
        println!("client refused {}", err.code);
    }

    drop(s.stdin);
    let status = s.child.wait().expect("wait for serve");
    assert!(status.success(), "serve exits 0 at EOF");
    println!("done");
}
