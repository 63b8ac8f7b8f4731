import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { isolatedStore } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { connectMcp } from '../support/mcp-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

interface ApprovalView {
  approval_id: string;
  status: string;
  candidate_state: string;
  decided_by: string | null;
}

const until = async <T>(find: () => Promise<T | undefined>, ms = 20_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/**
 * An agent cancels an edit_file that waits for an operator's approval, then the operator grants it:
 * nothing is written, and the approvals list says withdrawn. Over real stdio (`palimpsest mcp`: relayed
 * to the gateway on the embedded store, serving in-process on PostgreSQL) and over the gateway's /mcp.
 */
describe(`a cancelled MCP call withdraws its approval, on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let root: string;
  let ws: string;
  let env: NodeJS.ProcessEnv;
  let api: ApiProcess;
  let operator: HttpClient;
  let agent: string;

  beforeAll(async () => {
    store = await isolatedStore();
    root = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-cancel-'));
    ws = join(root, 'project');
    mkdirSync(ws);
    writeFileSync(join(root, 'policy.yaml'), 'profiles:\n  reviewed: { mode: allow_all, approve: true }\n');
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: ws, PALIMPSEST_POLICY_FILE: join(root, 'policy.yaml'), APPROVAL_WAIT_MS: '60000', PALIMPSEST_APPROVAL_POLL_MS: '100' };
    const tokens = await seedTokens(store.env, { operator: 'operator', agent: 'read,write' }, { agent: { mode: 'allow_all', approve: true } });
    agent = tokens.agent!.token;
    api = await startApi(env, ['--no-local-token']);
    operator = new HttpClient(api.url, tokens.operator!.token);
  });
  afterAll(async () => {
    await api?.stop();
    await store?.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  const approvals = async (status: string): Promise<ApprovalView[]> => (await operator.get('/v1/approvals', { status, limit: 200 })).body.approvals;
  const pendingOne = () => until(async () => (await approvals('pending'))[0]);

  /** Cancel a waiting edit_file from `client`, grant its approval afterwards, and check nothing was written. */
  async function cancelThenGrant(client: Client, path: string): Promise<void> {
    writeFileSync(join(ws, path), 'keep me\n');
    const caller = new AbortController();
    const call = client.callTool({ name: 'edit_file', arguments: { path, oldString: 'keep', newString: 'lost' } }, CallToolResultSchema, { signal: caller.signal, timeout: 60_000 });
    const pending = await pendingOne();
    caller.abort('the user changed their mind');
    await expect(call).rejects.toThrow();
    const withdrawn = await until(async () => (await approvals('withdrawn')).find((a) => a.approval_id === pending.approval_id));
    expect(withdrawn).toMatchObject({ status: 'withdrawn', candidate_state: 'discarded', decided_by: 'caller' });
    const grant = await operator.post(`/v1/approvals/${pending.approval_id}/approve`, { note: 'too late' });
    expect(grant.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(grant.body)).toContain('approval_decided');
    expect(await approvals('pending')).toEqual([]);
    expect(readFileSync(join(ws, path), 'utf8')).toBe('keep me\n');
    // The session goes on: the same edit, granted this time, lands.
    const again = client.callTool({ name: 'edit_file', arguments: { path, oldString: 'keep', newString: 'kept' } }, CallToolResultSchema, { timeout: 60_000 });
    const next = await pendingOne();
    expect((await operator.post(`/v1/approvals/${next.approval_id}/approve`, { note: 'fine' })).status).toBe(200);
    expect((await again).structuredContent).toMatchObject({ status: 'ok', path });
    expect(readFileSync(join(ws, path), 'utf8')).toBe('kept me\n');
  }

  it('over stdio: notifications/cancelled withdraws the approval, a later grant writes nothing', async () => {
    const mcp = await connectMcp(env, ['--profile', 'reviewed']);
    try {
      await cancelThenGrant(mcp.client, 'stdio.md');
    } finally {
      await mcp.close();
    }
  });

  it('over HTTP /mcp: the same, for a token whose policy asks for approvals', async () => {
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', api.url), { requestInit: { headers: { Authorization: `Bearer ${agent}` } } });
    const client = new SdkClient({ name: 'palimpsest-e2e-cancel', version: '1.0.0' });
    await client.connect(transport);
    try {
      await cancelThenGrant(client, 'http.md');
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});
