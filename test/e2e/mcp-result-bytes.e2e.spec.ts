import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CLI_BIN, isolatedStore, REPO_ROOT } from '../support/cli-process';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const MAX_RESULT_BYTES = 1_000_000;
const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** A 490 KB file of control characters (LF and CR among them): each one is sent as a \u escape, twice over MCP. */
function hostileFile(): Buffer {
  const bytes = Buffer.alloc(490_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = 1 + (i % 31);
  return bytes;
}

interface Sent {
  bytes: number;
  result: { isError?: boolean; structuredContent: Record<string, any> };
}

/** `palimpsest mcp` spoken to in raw JSON-RPC lines, each answer measured as the bytes it wrote. */
class RawStdio {
  private readonly waiting = new Map<number, (sent: Sent) => void>();
  private next = 1;
  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line);
      this.waiting.get(message.id)?.({ bytes: Buffer.byteLength(line) + 1, result: message.result });
    });
  }

  request(method: string, params: unknown): Promise<Sent> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  async start(): Promise<void> {
    await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bytes', version: '1' } });
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }

  call(name: string, args: Record<string, unknown>): Promise<Sent> {
    return this.request('tools/call', { name, arguments: args });
  }
}

/** Every page of read_file, following offset; `call` answers one page and the bytes it took. */
async function readAllPages(call: (args: Record<string, unknown>) => Promise<Sent>, path: string): Promise<Sent[]> {
  const pages: Sent[] = [];
  for (let offset = 1; ; ) {
    const page = await call({ path, offset });
    pages.push(page);
    const answer = page.result.structuredContent;
    if (!answer.truncated) return pages;
    offset += answer.content.split('\n').length - 1;
  }
}

describe(`answers measured as sent, over stdio and /mcp, on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let root: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await isolatedStore();
    root = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-bytes-'));
    mkdirSync(join(root, 'project'));
    writeFileSync(join(root, 'project', 'control.txt'), hostileFile());
    writeFileSync(join(root, 'project', 'notes.md'), '# Notes\n\nalpha\n');
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: join(root, 'project') };
  });
  afterAll(async () => {
    await store?.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it('over stdio (files profile): capabilities within 4 KiB, every read_file page of the hostile file within MAX_RESULT_BYTES, the whole file read', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--profile', 'files'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.resume();
    try {
      const mcp = new RawStdio(child);
      await mcp.start();
      const caps = await mcp.call('palimpsest_capabilities', {});
      expect(caps.result.structuredContent).toMatchObject({ profile: 'files' });
      expect(Buffer.byteLength(JSON.stringify(caps.result.structuredContent))).toBeLessThanOrEqual(4096);
      const pages = await readAllPages((args) => mcp.call('read_file', args), 'control.txt');
      process.stdout.write(`read_file control.txt over stdio: ${pages.length} pages, largest ${Math.max(...pages.map((p) => p.bytes))} bytes sent\n`);
      for (const page of pages) expect(page.bytes).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      expect(pages.map((p) => p.result.structuredContent.content).join('')).toBe(hostileFile().toString('utf8'));
      const edit = await mcp.call('edit_file', { path: 'notes.md', oldString: 'alpha', newString: 'beta' });
      expect(edit.result.structuredContent.status).toBe('ok');
      const log = await mcp.call('palimpsest_get_attempt_log', { target_file_id: edit.result.structuredContent.target_file_id });
      expect(log.result.structuredContent.entries[0]).toMatchObject({ status: 'accepted', summary: expect.any(String) });
      expect(log.bytes).toBeLessThan(4096);
      const target = await mcp.call('palimpsest_workspace_status', { path_prefix: 'notes.md' });
      expect(target.result.isError).toBe(false);
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once('close', resolve));
    }
  });

  describe('over HTTP /mcp', () => {
    let api: ApiProcess;
    let token: string;
    beforeAll(async () => {
      token = (await seedTokens(store.env, { all: 'read,write,operator,auditor' })).all!.token;
      api = await startApi(env, ['--no-local-token']);
    });
    afterAll(async () => {
      await api?.stop();
    });

    it('every read_file page of the hostile file within MAX_RESULT_BYTES as the response body', async () => {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-palimpsest-profile': 'files' };
      const post = (body: unknown, session?: string) => fetch(new URL('/mcp', api.url), { method: 'POST', headers: { ...headers, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}) }, body: JSON.stringify(body) });
      const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bytes', version: '1' } } });
      const session = init.headers.get('mcp-session-id')!;
      await init.text();
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
      let id = 2;
      const call = async (args: Record<string, unknown>): Promise<Sent> => {
        const text = await (await post({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'read_file', arguments: args } }, session)).text();
        const json = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: '))!.slice(6);
        return { bytes: Buffer.byteLength(text), result: JSON.parse(json).result };
      };
      const pages = await readAllPages(call, 'control.txt');
      for (const page of pages) expect(page.bytes).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      expect(pages.map((p) => p.result.structuredContent.content).join('')).toBe(hostileFile().toString('utf8'));
      await fetch(new URL('/mcp', api.url), { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session } });
    });
  });
});
