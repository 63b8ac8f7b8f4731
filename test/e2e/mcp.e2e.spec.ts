import { spawn } from 'node:child_process';
import { servedWithoutExecutors } from '@palimpsest/protocol/catalog/operations/projects.operations';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { EXAMPLE_TARGET_ID, EXAMPLE_TEXT } from '@palimpsest/protocol/catalog/fragments';
import { bindObserved, EXAMPLE_DOCUMENT } from '@palimpsest/protocol/catalog/observed-examples';
import { servedReadOnly } from '@palimpsest/protocol/catalog/operation-spec';
import { CLI_BIN, REPO_ROOT, isolatedStore, runCli } from '../support/cli-process';
import { connectMcp, useMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const H0 = 'b22ebf774cb2d9b12dc23d13ac860581d994ab579f4fb470b6f79d0b43a15ff2';
const SUCCESS = new Set(['ok', 'accepted', 'saved', 'success', 'candidates', 'observed', 'observed_batch', 'scope_page']);
/** The fixture an advertised example is written against (the catalog says; tools/list shows only params). */

describe(`palimpsest mcp over real stdio (SDK client) on ${backend}`, () => {
  const session = useMcp();
  const newTarget = async (content: string) => {
    const r = await session.mcp.call('palimpsest_initialize_target', { filename: 'doc.md', content });
    expect(r.result.status).toBe('ok');
    return r.result.target_file_id as string;
  };


  it('lists every catalog tool within the byte bounds, examples included', async () => {
    const { tools } = await session.mcp.client.listTools();
    // stdio has no executors: the project tools are a gateway's (docs/executors.md).
    expect(tools.map((t) => t.name)).toEqual(CATALOG.filter((op) => servedWithoutExecutors(op.name)).map((op) => op.name));
    // The budget of tool-list.unit.spec.ts (64 KiB, plus 2 KiB for snapshots and 7 KiB for the code graph's five reads).
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(73 * 1024);
    const examples = Object.fromEntries(tools.filter((t) => (t.inputSchema as any).examples).map((t) => [t.name, (t.inputSchema as any).examples]));
    // One example a tool (one a form) where an example teaches; the simple reads' stay in the reference.
    const advertised = CATALOG.filter((op) => servedWithoutExecutors(op.name)).reduce((n, op) => n + Math.min(op.examples.length, op.advertisedExamples ?? 1), 0);
    expect(Object.values(examples).flat().length).toBe(advertised);
    expect(advertised).toBeGreaterThanOrEqual(6);
    expect(Buffer.byteLength(JSON.stringify(examples))).toBeLessThanOrEqual(8_192);
    for (const tool of tools) {
      for (const [name, schema] of Object.entries((tool.inputSchema.properties ?? {}) as Record<string, any>)) {
        expect({ tool: tool.name, name, ok: typeof schema.description === 'string' }).toEqual({ tool: tool.name, name, ok: true });
      }
    }
  });

  it('calls every advertised example successfully once bound to a real target', async () => {
    const { tools } = await session.mcp.client.listTools();
    for (const tool of tools) {
      for (const example of ((tool.inputSchema as any).examples ?? []) as Record<string, unknown>[]) {
        // An observed example's ids stand for the receipts of a real observation (its catalog entry says which).
        const setup = CATALOG.find((op) => op.name === tool.name)!.examples.find((e) => JSON.stringify(e.params) === JSON.stringify(example))?.setup;
        const id = await newTarget(setup ? EXAMPLE_DOCUMENT : EXAMPLE_TEXT);
        const observe = async (name: string, args: Record<string, unknown>) => (await session.mcp.call(name, args)).result as Record<string, unknown>;
        const ids: Record<string, string> = { [id]: EXAMPLE_TARGET_ID, ...(setup ? await bindObserved(observe, setup, id) : {}) };
        const bound = Object.entries(ids).reduce((v, [real, shown]) => JSON.parse(JSON.stringify(v).split(shown).join(real)), example);
        const r = await session.mcp.call(tool.name, bound);
        expect({ tool: tool.name, status: r.result.status, ok: SUCCESS.has(r.result.status) && !r.isError }).toMatchObject({ ok: true });
      }
    }
  });

  it('reproduces the seed golden vectors through MCP', async () => {
    const created = await session.mcp.call('palimpsest_initialize_target', { filename: 'doc.md', content: 'alpha beta alpha\r\n', content_type: 'text/markdown' });
    expect(created.result).toMatchObject({ status: 'ok', version: 0, current_hash: H0, source_line_endings: { style: 'crlf', crlf: 1, source_code_points: 18 } });
    const id = created.result.target_file_id;
    const ambiguous = await session.mcp.call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'Rename alpha', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }],
    });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.result).toMatchObject({ status: 'rejected', failure_reason: 'match_ambiguous', diagnostic: { occurrence_count: 2 } });
    const accepted = await session.mcp.call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'Rename alpha', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }],
    });
    expect(accepted.result).toMatchObject({ status: 'accepted', version: 1, evidence: { changes: [{ span_start: 11, span_end: 16 }] } });
    expect(accepted.result.after_hash.slice(0, 8)).toBe('adf7157c');
    expect(accepted.text).not.toMatch(/\\u[0-9a-f]{4}/);
  });

  it('answers unknown and missing argument names before the tool runs', async () => {
    const id = await newTarget('x\n');
    const unknown = await session.mcp.call('palimpsest_read_target', { target_file_id: id, begin: 0 });
    expect(unknown).toMatchObject({ isError: true, result: { status: 'invalid_argument', code: 'unknown_argument', tool: 'palimpsest_read_target', unknown_arguments: ['begin'] } });
    const missing = await session.mcp.call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', expected_target_version: 0 });
    expect(missing).toMatchObject({ isError: true, result: { code: 'missing_argument', missing_arguments: ['edits'] } });
    const log = await session.mcp.call('palimpsest_get_attempt_log', { target_file_id: id });
    expect(log.result.entries).toEqual([]);
  });

  it('answers a failure path for each tool family', async () => {
    const id = await newTarget('one\n');
    expect((await session.mcp.call('palimpsest_get_target', { target_file_id: '00000000-0000-4000-8000-000000000000' })).result.status).toBe('not_found');
    expect((await session.mcp.call('palimpsest_read_lines', { target_file_id: id, start_line: 5 })).result.code).toBe('line_out_of_range');
    expect((await session.mcp.call('palimpsest_export_target', { target_file_id: id, format: 'utf7' })).result.code).toBe('unsupported_export_format');
    expect((await session.mcp.call('palimpsest_submit_replacement', { target_file_id: id, intent: 'x', expected_target_version: 4, replacement: '' })).result.failure_reason).toBe('target_version_mismatch');
    expect((await session.mcp.call('palimpsest_save', { target_file_id: id, expected_target_version: 4 })).result.status).toBe('rejected');
  });
});

describe(`palimpsest mcp profiles and response modes on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let targetId: string;
  beforeAll(async () => {
    store = await isolatedStore();
    const created = await runCli(['call', 'palimpsest_initialize_target'], { input: JSON.stringify({ filename: 'a', content: 'alpha\n' }), env: store.env });
    targetId = JSON.parse(created.stdout).target_file_id;
  });
  afterAll(() => store.dispose());

  it('read-only advertises read tools only and refuses writes with a structured error', async () => {
    const mcp = await connectMcp(store.env, ['--profile', 'read-only']);
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(CATALOG.filter((o) => servedReadOnly(o) && servedWithoutExecutors(o.name)).map((o) => o.name).sort());
      const refused = await mcp.call('palimpsest_submit_edits', { target_file_id: targetId, intent: 'x', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'b' }] });
      expect(refused).toMatchObject({ isError: true, result: { code: 'operation_not_permitted' } });
      expect((await mcp.call('palimpsest_read_target', { target_file_id: targetId })).result.text).toBe('alpha\n');
      expect((await mcp.call('palimpsest_capabilities', {})).result).toMatchObject({ profile: 'read-only' });
    } finally {
      await mcp.close();
    }
  });

  it('compact mode omits accepted evidence and says so', async () => {
    const mcp = await connectMcp({ ...store.env, PALIMPSEST_MCP_RESPONSE_MODE: 'compact' });
    try {
      const r = await mcp.call('palimpsest_submit_edits', { target_file_id: targetId, intent: 'x', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'beta' }] });
      expect(r.result).toMatchObject({ status: 'accepted', presentation: { mode: 'compact', omitted: ['evidence'] } });
      expect(r.result.evidence).toBeUndefined();
    } finally {
      await mcp.close();
    }
  });

  it('refuses to start with an unknown response mode', async () => {
    const r = await runCli(['mcp'], { env: { ...store.env, PALIMPSEST_MCP_RESPONSE_MODE: 'verbose' } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('PALIMPSEST_MCP_RESPONSE_MODE');
  });

  it('writes pure ASCII lines, so U+2028 in document text cannot split one', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'mcp'], { cwd: REPO_ROOT, env: { ...process.env, ...store.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buffer = '';
    const got = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('latin1');
        let i;
        while ((i = buffer.indexOf('\n')) >= 0) {
          lines.push(buffer.slice(0, i));
          buffer = buffer.slice(i + 1);
          if (lines.length === 2) resolve();
        }
      });
    });
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'palimpsest_initialize_target', arguments: { filename: 'é.md', content: 'a\u2028b\u0085c 😀\n' } } });
    await got;
    child.stdin.end();
    await new Promise((r) => child.on('close', r));
    for (const line of lines) expect(/^[\x20-\x7e]*$/.test(line)).toBe(true);
    const result = JSON.parse(lines[1]).result;
    expect(JSON.parse(result.content[0].text).filename).toBe('é.md');
    expect(result.content[0].text).toContain('é.md');
  });
});
