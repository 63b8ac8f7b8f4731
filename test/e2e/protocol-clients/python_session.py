"""Drives `palimpsest serve` through a real session with the generated Python helpers (standard library only).

usage: python3 python_session.py <node> <palimpsest.js> <clients/python dir>
Prints one line per answer, "<method> <kind> <status or code>", and exits non-zero on the first surprise.
The helpers do no I/O: this script owns the process and its pipes.
"""
import json
import os
import subprocess
import sys

node, cli, client_dir = sys.argv[1:4]
sys.dont_write_bytecode = True  # leave no __pycache__ in the repository
sys.path.insert(0, client_dir)
import palimpsest_client as pc  # noqa: E402

server = subprocess.Popen([node, cli, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=os.environ)
next_id = 0


def expect(ok, what):
    if not ok:
        raise SystemExit(f"python session: {what}")


def answer(line, method):
    a = pc.decode_response(line, method)
    detail = a.code if a.kind == "error" else (a.status if a.kind == "success" else f"{a.status}/{a.code}")
    print(f"{method or '-'} {a.kind} {detail}", flush=True)
    return a


def call(method, params=None):
    global next_id
    next_id += 1
    server.stdin.write(pc.encode_request(next_id, method, params).encode("ascii"))
    server.stdin.flush()
    a = answer(server.stdout.readline().decode("ascii"), method)
    expect(a.id == next_id, f"answer to {next_id} carried id {a.id}")
    return a


def raw(line):
    server.stdin.write(line.encode("ascii"))
    server.stdin.flush()
    return answer(server.stdout.readline().decode("ascii"), None)


caps = call("protocol/capabilities").result["payload"]
expect(caps["methods"] == sorted(caps["methods"]), "methods are sorted")
expect(set(caps["methods"]) <= set(pc.METHOD_NAMES), "every served method is one this client knows")
schemas = call("protocol/schemas").result["payload"]
expect(set(schemas["methods"]) == set(pc.METHOD_NAMES), "a request schema for every method")
call("protocol/instructions")
files = call("protocol/client", {"language": "python"}).result["payload"]["files"]
with open(os.path.join(client_dir, "palimpsest_client.py"), encoding="utf-8") as f:
    expect(files[0]["content"] == f.read(), "protocol/client answers this very module")
queries = call("query/catalog").result["payload"]["queries"]
expect(all(pc.METHODS[q["name"]].read_only for q in queries), "queries only read")

target = call("palimpsest_initialize_target", {"filename": "doc.md", "content": "alpha beta alpha\n"}).result
edit = {"target_file_id": target["target_file_id"], "intent": "rename", "expected_target_version": 0}
call("palimpsest_submit_edits", {**edit, "edits": [{"match": "alpha", "replace": "gamma"}]})
accepted = call("palimpsest_submit_edits", {**edit, "edits": [{"match": "alpha", "replace": "gamma\u2028", "occurrence_index": 2}]})
expect(accepted.result["version"] == 1, "the accepted edit made version 1")
text = call("palimpsest_read_target", {"target_file_id": target["target_file_id"]}).result["text"]
expect(text == "alpha beta gamma\u2028\n", f"non-ASCII text round-trips: {text!r}")
call("palimpsest_get_target", {"target_file_id": "00000000-0000-4000-8000-000000000000"})
call("protocol/client", {"language": "cobol"})
raw('{"jsonrpc":"2.0","id":"x","method":"palimpsest_frobnicate"}\n')
raw("{not json}\n")

ok_result = {"status": "ok", "schema": pc.PROTOCOL_RESULT_SCHEMA, "protocol": pc.PROTOCOL_VERSION, "payload": {}}
older = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {**ok_result, "protocol": "palimpsest.json-lines.v0"}})
for attempt, code in [
    (lambda: pc.encode_request(1, "palimpsest_sumbit_edits", {}), "unknown_method"),
    (lambda: pc.encode_request(1, "protocol/client", {"language": "python", "extra": 1}), "unknown_argument"),
    (lambda: pc.encode_request(2**64, "protocol/capabilities"), "invalid_id"),
    (lambda: pc.decode_response(older, "protocol/capabilities"), "protocol_mismatch"),
]:
    try:
        attempt()
        raise SystemExit(f"python session: expected the client to refuse with {code}")
    except pc.ClientError as err:
        expect(err.code == code, f"expected {code}, got {err.code}")
        print(f"client refused {err.code}", flush=True)

server.stdin.close()
expect(server.wait(timeout=60) == 0, "serve exits 0 at EOF")
print("done", flush=True)
