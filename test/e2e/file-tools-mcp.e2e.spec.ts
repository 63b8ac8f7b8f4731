import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedStore, runCli } from '../support/cli-process';
import { connectMcp, type McpSession } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`edit_file and write_file over real MCP stdio and the CLI on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let mcp: McpSession;
  let closed = false;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-ftools-'));
    expect((await runCli(['migrate'], { env: store.env })).code).toBe(0);
    mcp = await connectMcp({ ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir });
  });
  afterAll(async () => {
    if (!closed) await mcp?.close();
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('lists both tools with the seed input schemas', async () => {
    const { tools } = await mcp.client.listTools();
    const edit = tools.find((t) => t.name === 'edit_file');
    const write = tools.find((t) => t.name === 'write_file');
    expect(edit?.inputSchema).toMatchObject({ required: ['path', 'oldString', 'newString'], additionalProperties: false });
    expect(write?.inputSchema).toMatchObject({ required: ['path', 'content'], additionalProperties: false });
  });

  it('writes a new file, edits it once, refuses three matches with a ready call per line (the one sent as given lands), and the log holds every write', async () => {
    const created = await mcp.call('write_file', { path: 'src/a.txt', content: 'x\r\ny\r\nx\r\nx\r\n' });
    expect(created).toMatchObject({ isError: false, result: { status: 'ok', created: true, bytesWritten: 12 } });
    const ambiguous = await mcp.call('edit_file', { path: 'src/a.txt', oldString: 'x', newString: 'z' });
    expect(ambiguous.result).toMatchObject({ status: 'rejected', failure_reason: 'match_ambiguous', match_lines: [1, 3, 4] });
    expect(Buffer.byteLength(ambiguous.text, 'utf8')).toBeLessThanOrEqual(1500);
    const offered = ambiguous.result.next_actions.find((a: any) => a.reason === 'The occurrence on line 3');
    expect(offered).toMatchObject({ operation: 'edit_file', params: { path: 'src/a.txt' } });
    const edited = await mcp.call(offered.operation, offered.params);
    expect(edited.result).toMatchObject({ status: 'ok', replacements: 1, content_eol: 'crlf' });
    expect(edited.result.diff).toContain('+z\n');
    expect(readFileSync(join(dir, 'src/a.txt'), 'utf8')).toBe('x\r\ny\r\nz\r\nx\r\n');
    const id = edited.result.target_file_id;
    const log = await mcp.call('palimpsest_get_attempt_log', { target_file_id: id });
    expect(log.result.entries.map((e: any) => e.status)).toEqual(['accepted', 'rejected']);
    const replay = await mcp.call('palimpsest_replay', { target_file_id: id });
    expect(replay.result).toMatchObject({ status: 'success', materialized_state_matches: true });
  });

  it('answers through `palimpsest call` too', async () => {
    await mcp.close(); // one process at a time on an embedded (PGlite) store
    closed = true;
    writeFileSync(join(dir, 'cli.md'), 'hello\n');
    const env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir };
    const r = await runCli(['call', 'edit_file', '--args', JSON.stringify({ path: 'cli.md', oldString: 'hello', newString: 'bye' })], { env });
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'ok', path: 'cli.md', replacements: 1 });
    expect(readFileSync(join(dir, 'cli.md'), 'utf8')).toBe('bye\n');
  });
});
