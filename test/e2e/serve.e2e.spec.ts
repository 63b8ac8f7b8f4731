import { isolatedStore } from '../support/cli-process';
import { JsonLinesClient } from '../support/json-lines-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const SEP = '\u2028';
const ASCII_LINE = /^[\x20-\x7e]*$/;

describe(`palimpsest serve (JSON-RPC over NDJSON) as a real process on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let targetId = '';
  const clients: JsonLinesClient[] = [];
  const serve = (args: string[] = []) => {
    const c = new JsonLinesClient(args, store.env);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    store = await isolatedStore();
  });
  afterEach(() => clients.splice(0).forEach((c) => c.kill()));
  afterAll(() => store.dispose());

  it('initializes a target, submits accepted and rejected edits, reads lines, and exits 0 at EOF', async () => {
    const s = serve();
    const created = await s.call('palimpsest_initialize_target', { filename: 'doc.md', content: `alpha ${SEP} beta alpha\nsecond line\n` });
    expect(created.result).toMatchObject({ status: 'ok', version: 0 });
    targetId = created.result.target_file_id;

    const rejected = await s.call('palimpsest_submit_edits', {
      target_file_id: targetId, intent: 'rename', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }],
    });
    expect(rejected).not.toHaveProperty('error');
    expect(rejected.result).toMatchObject({ status: 'rejected', failure_reason: 'match_ambiguous' });

    const accepted = await s.call('palimpsest_submit_edits', {
      target_file_id: targetId, intent: 'rename', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }],
    });
    expect(accepted.result).toMatchObject({ status: 'accepted', version: 1 });

    const lines = await s.call('palimpsest_read_lines', { target_file_id: targetId, start_line: 1, end_line: 1 });
    expect(lines.result).toMatchObject({ status: 'ok', version: 1, text: `alpha ${SEP} beta gamma\n` });

    s.end();
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect(s.lines).toHaveLength(4);
  });

  it('writes every response as one pure-ASCII line; U+2028 in document text arrives intact', async () => {
    const s = serve();
    const got = await s.call('palimpsest_get_target', { target_file_id: targetId });
    const raw = s.lines[s.lines.length - 1];
    expect(raw).toMatch(ASCII_LINE);
    expect(raw).toContain('\\u2028');
    expect(got.result.current_content).toBe(`alpha ${SEP} beta gamma\nsecond line\n`);
    s.end();
    await s.exited;
  });

  it('keeps notifications silent and does no work for them; unknown methods are -32601', async () => {
    const s = serve();
    s.notify('palimpsest_submit_edits', {
      target_file_id: targetId, intent: 'silent', expected_target_version: 1, edits: [{ match: 'second', replace: 'SECOND' }],
    });
    s.notify('palimpsest_no_such_method', [1, 2]);
    s.send('\n\n');
    const unknown = await s.call('palimpsest_frobnicate', {});
    expect(unknown.error).toMatchObject({ code: -32601, data: { code: 'unknown_operation', method: 'palimpsest_frobnicate' } });
    const target = await s.call('palimpsest_get_target', { target_file_id: targetId });
    expect(target.result).toMatchObject({ version: 1 });
    const log = await s.call('palimpsest_get_attempt_log', { target_file_id: targetId });
    expect(JSON.stringify(log.result)).not.toContain('silent');
    s.end();
    expect((await s.exited).code).toBe(0);
    expect(s.lines).toHaveLength(3);
  });

  it('maps argument refusals to -32602 with the result as data, and not_found to -32000', async () => {
    const s = serve();
    const unknownArg = await s.call('palimpsest_get_target', { target_file_id: targetId, extra: 1 });
    expect(unknownArg.error).toMatchObject({ code: -32602, data: { status: 'invalid_argument', code: 'unknown_argument' } });
    const missing = await s.call('palimpsest_submit_edits', { target_file_id: targetId });
    expect(missing.error).toMatchObject({ code: -32602, data: { code: 'missing_argument' } });
    const badValue = await s.call('palimpsest_read_lines', { target_file_id: targetId, start_line: 0 });
    expect(badValue.error).toMatchObject({ code: -32602, data: { code: 'invalid_argument_value' } });
    const arrayParams = await s.call('palimpsest_get_target', [targetId]);
    expect(arrayParams.error).toMatchObject({ code: -32602, data: { code: 'invalid_params' } });
    const notFound = await s.call('palimpsest_get_target', { target_file_id: '00000000-0000-4000-8000-000000000000' });
    expect(notFound.error).toMatchObject({ code: -32000, data: { status: 'not_found' } });
    s.end();
    await s.exited;
  });

  it('echoes ids exactly: 2^64-1 as the same token, and string ids', async () => {
    const s = serve();
    s.send(`{"jsonrpc":"2.0","id":18446744073709551615,"method":"palimpsest_get_target","params":{"target_file_id":"${targetId}"}}\n`);
    expect(await s.nextLine()).toMatch(/^\{"jsonrpc":"2\.0","id":18446744073709551615,"result":\{/);
    s.send(`{"jsonrpc":"2.0","id":"r\u00e9q-1","method":"palimpsest_get_target","params":{"target_file_id":"${targetId}"}}\n`);
    const line = await s.nextLine();
    expect(line).toMatch(ASCII_LINE);
    expect(JSON.parse(line).id).toBe('r\u00e9q-1');
    s.end();
    await s.exited;
  });

  it('fails closed on every strict-codec violation, answers each, and keeps serving', async () => {
    const s = serve();
    const ok = `{"jsonrpc":"2.0","id":99,"method":"palimpsest_get_target","params":{"target_file_id":"${targetId}"}}`;
    const cases: Array<[string | Uint8Array, number, string]> = [
      ['{"jsonrpc":"2.0","id":1,"method":"palimpsest_get_target","params":{"target_file_id":"a","target_file_id":"b"}}\n', -32700, 'duplicate_key'],
      ['{"jsonrpc":"2.0","id":1,"method":"palimpsest_read_lines","params":{"x":[{"k":1,"k":2}]}}\n', -32700, 'duplicate_key'],
      [`${ok}\r\n`, -32700, 'carriage_return'],
      [Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}\n')]), -32700, 'invalid_utf8'],
      ['{"jsonrpc":"2.0","id":1,"method":"m",}\n', -32700, 'invalid_json'],
      [`[${ok}]\n`, -32600, 'batch_not_supported'],
      ['{"jsonrpc":"2.0","id":1,"method":"palimpsest_get_target","params":{},"meta":1}\n', -32600, 'unknown_member'],
      ['{"jsonrpc":"1.0","id":1,"method":"palimpsest_get_target"}\n', -32600, 'invalid_jsonrpc'],
      ['{"jsonrpc":"2.0","id":-1,"method":"palimpsest_get_target"}\n', -32600, 'invalid_id'],
      ['{"jsonrpc":"2.0","id":18446744073709551616,"method":"palimpsest_get_target"}\n', -32600, 'invalid_id'],
      ['{"jsonrpc":"2.0","id":1.5,"method":"palimpsest_get_target"}\n', -32600, 'invalid_id'],
      [`{"jsonrpc":"2.0","id":"${'i'.repeat(129)}","method":"palimpsest_get_target"}\n`, -32600, 'invalid_id'],
      ['{"jsonrpc":"2.0","id":"a\\u0001","method":"palimpsest_get_target"}\n', -32600, 'invalid_id'],
      ['{"jsonrpc":"2.0","id":null,"method":"palimpsest_get_target"}\n', -32600, 'invalid_id'],
      ['{"jsonrpc":"2.0","id":1,"method":"palimpsest_get_target","params":"x"}\n', -32602, 'invalid_params'],
      ['{"jsonrpc":"2.0","id":1,"method":"palimpsest_get_target","params":null}\n', -32602, 'invalid_params'],
    ];
    for (const [frame, code, dataCode] of cases) {
      s.send(frame);
      const line = await s.nextLine();
      expect(line).toMatch(ASCII_LINE);
      expect({ frame: String(frame), error: JSON.parse(line).error }).toMatchObject({ error: { code, data: { code: dataCode } } });
    }
    s.send(`${ok}\n`);
    expect(JSON.parse(await s.nextLine())).toMatchObject({ id: 99, result: { status: 'ok' } });
    s.end();
    expect((await s.exited).code).toBe(0);
  });

  it('read-only profile refuses writes with -32601 and still serves reads', async () => {
    const s = serve(['--profile', 'read-only']);
    const submit = await s.call('palimpsest_submit_edits', {
      target_file_id: targetId, intent: 'x', expected_target_version: 1, edits: [{ match: 'gamma', replace: 'delta' }],
    });
    expect(submit.error).toMatchObject({ code: -32601, data: { code: 'operation_not_permitted' } });
    const init = await s.call('palimpsest_initialize_target', { filename: 'x.md', content: 'x' });
    expect(init.error).toMatchObject({ code: -32601 });
    const read = await s.call('palimpsest_read_lines', { target_file_id: targetId });
    expect(read.result).toMatchObject({ status: 'ok', version: 1 });
    s.end();
    expect((await s.exited).code).toBe(0);
  });

  it('serves a policy-file profile: tools outside its allow list answer -32601, capabilities say so', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'palimpsest-serve-policy-'));
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, 'profiles:\n  readers: { mode: allow_list, tools: [palimpsest_read_lines, palimpsest_capabilities] }\n');
    const c = new JsonLinesClient(['--profile', 'readers'], { ...store.env, PALIMPSEST_POLICY_FILE: file });
    clients.push(c);
    const hidden = await c.call('palimpsest_get_target', { target_file_id: targetId });
    expect(hidden.error).toMatchObject({ code: -32601, data: { code: 'operation_not_permitted', method: 'palimpsest_get_target' } });
    expect((await c.call('palimpsest_read_lines', { target_file_id: targetId })).result).toMatchObject({ status: 'ok' });
    const caps = (await c.call('palimpsest_capabilities', { detail: true })).result;
    expect(caps.policy).toMatchObject({ name: 'readers', mode: 'allow_list' });
    const status = Object.fromEntries(caps.operations.map((o: { name: string; status: string }) => [o.name, o.status]));
    expect(status).toMatchObject({ palimpsest_read_lines: 'available', palimpsest_get_target: 'not_permitted', palimpsest_submit_edits: 'not_permitted' });
    c.end();
    expect((await c.exited).code).toBe(0);
  });

  it('refuses an unknown profile at start-up', async () => {
    const s = serve(['--profile', 'admin']);
    s.end();
    const exit = await s.exited;
    expect(exit.code).not.toBe(0);
    expect(s.stderr).toMatch(/profile/);
    expect(s.lines).toHaveLength(0);
  });

  it('answers an oversized frame (70,000 bytes) once with -32700 and exits while stdin is still open', async () => {
    const s = serve();
    const first = await s.call('palimpsest_get_target', { target_file_id: targetId });
    expect(first.result).toMatchObject({ status: 'ok' });
    s.send(`{"jsonrpc":"2.0","id":5,"method":"palimpsest_get_target","params":{"pad":"${'p'.repeat(70_000)}"}}\n`);
    s.send(`{"jsonrpc":"2.0","id":6,"method":"palimpsest_get_target","params":{"target_file_id":"${targetId}"}}\n`);
    const error = await s.next();
    expect(error).toMatchObject({ id: null, error: { code: -32700, data: { code: 'frame_too_large', limit_bytes: 65_536 } } });
    const exit = await s.exited; // stdin was never closed by the client
    expect(exit.code).toBe(65);
    expect(s.pending).toBe(0);
    expect(s.lines).toHaveLength(2);
  });

  it('answers a request that is in flight when stdin closes, then exits 0', async () => {
    const s = serve();
    s.send(`{"jsonrpc":"2.0","id":1,"method":"palimpsest_get_target","params":{"target_file_id":"${targetId}"}}\n`);
    s.send(`{"jsonrpc":"2.0","id":2,"method":"palimpsest_read_lines","params":{"target_file_id":"${targetId}"}}`);
    s.end();
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect(s.lines.map((l) => JSON.parse(l).id)).toEqual([1, 2]);
  });
});
