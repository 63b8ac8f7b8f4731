import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, LATEST_PROTOCOL_VERSION, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { isolatedStore } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { connectHttp, connectMcp, structuredAnswer } from '../support/mcp-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const WAIT_MS = 30_000;
const PROGRESS_MS = 250;
/** Shorter than the wait before the operator decides: only progress keeps the request alive. */
const CLIENT_TIMEOUT_MS = 1_000;

/** A target and a one-operation candidate over it; answers the candidate id. */
async function candidateOn(client: Client, word: string): Promise<string> {
  const target = (await structuredAnswer(client, 'palimpsest_initialize_target', { filename: `${word}.md`, content: `${word}\n` })).target_file_id;
  const proposed = await structuredAnswer(client, 'palimpsest_change_propose', { request_id: `prop-${word}`, base: [{ target_file_id: target, version: 0 }], operations: [{ kind: 'replace_all', target_file_id: target, replacement: `${word}!\n` }] });
  return (proposed.candidate as { id: string }).id;
}

const until = async (check: () => boolean | Promise<boolean>, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe(`MCP over HTTP: progress while an apply waits for approval, on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let agent: string;
  let operator: HttpClient;

  beforeAll(async () => {
    store = await isolatedStore();
    const tokens = await seedTokens(store.env, { agent: 'read,write', operator: 'operator' }, { agent: { mode: 'allow_all', approve: true } });
    agent = tokens.agent!.token;
    api = await startApi({ ...store.env, APPROVAL_WAIT_MS: String(WAIT_MS), PALIMPSEST_APPROVAL_POLL_MS: '100', PALIMPSEST_MCP_PROGRESS_MS: String(PROGRESS_MS) }, ['--no-local-token']);
    operator = new HttpClient(api.url, tokens.operator!.token);
  });
  afterAll(async () => {
    const stopped = await api?.stop();
    expect(stopped?.code).toBe(0);
    await store?.dispose();
  });

  const pendingFor = async (candidate: string): Promise<string | undefined> =>
    ((await operator.get('/v1/approvals')).body.approvals as { approval_id: string; candidate: string }[]).find((a) => a.candidate === candidate)?.approval_id;

  it('keeps a request with a short timeout alive through the wait, and answers once another client approves', async () => {
    const { client } = await connectHttp(api.url, agent);
    try {
      const candidate = await candidateOn(client, 'approved');
      const progress: Progress[] = [];
      const started = Date.now();
      const applying = client.callTool({ name: 'palimpsest_change_apply', arguments: { candidate, expected_candidate_version: 1, request_id: 'apply-1' } }, CallToolResultSchema, {
        timeout: CLIENT_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        onprogress: (p) => void progress.push(p),
      });
      await until(() => Date.now() - started > CLIENT_TIMEOUT_MS * 3 && progress.length >= 4);
      const approval = await pendingFor(candidate);
      expect((await operator.post(`/v1/approvals/${approval}/approve`, { note: 'e2e' })).status).toBe(200);
      expect((await applying).structuredContent).toMatchObject({ status: 'ok', receipt: { outcome: 'applied', request_id: 'apply-1' } });
      expect(Date.now() - started).toBeGreaterThan(CLIENT_TIMEOUT_MS * 3);
      expect(progress[0]).toMatchObject({ total: WAIT_MS, message: expect.stringContaining(`approval ${approval}`) });
      expect(progress.every((p, i) => i === 0 || p.progress > progress[i - 1]!.progress)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('without progress the same timeout cuts the request (the control)', async () => {
    const { client } = await connectHttp(api.url, agent);
    try {
      const candidate = await candidateOn(client, 'declined');
      const apply = client.callTool({ name: 'palimpsest_change_apply', arguments: { candidate, expected_candidate_version: 1, request_id: 'apply-2' } }, CallToolResultSchema, { timeout: CLIENT_TIMEOUT_MS });
      await expect(apply).rejects.toThrow(/timed out/i);
      // The client cancels what timed out (notifications/cancelled): the gateway withdraws the approval and its wait ends.
      const withdrawn = async () => ((await operator.get('/v1/approvals', { status: 'withdrawn' })).body.approvals as { candidate: string }[]).some((a) => a.candidate === candidate);
      await until(withdrawn);
      expect(await pendingFor(candidate)).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe(`MCP over stdio: the same progress notifications, on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-progress-'));
    writeFileSync(join(dir, 'policy.yaml'), 'profiles:\n  reviewed: { mode: allow_all, approve: true }\n');
  });
  afterAll(async () => {
    await store?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports the wait until its end: the approval_timeout answer arrives although it outlasts the request timeout', async () => {
    const env = { ...store.env, PALIMPSEST_POLICY_FILE: join(dir, 'policy.yaml'), APPROVAL_WAIT_MS: '2500', PALIMPSEST_APPROVAL_POLL_MS: '100', PALIMPSEST_MCP_PROGRESS_MS: String(PROGRESS_MS) };
    const mcp = await connectMcp(env, ['--profile', 'reviewed']);
    try {
      const candidate = await candidateOn(mcp.client, 'stdio');
      const progress: Progress[] = [];
      const r = (await mcp.client.callTool({ name: 'palimpsest_change_apply', arguments: { candidate, expected_candidate_version: 1, request_id: 'apply-stdio' } }, CallToolResultSchema, {
        timeout: CLIENT_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        onprogress: (p) => void progress.push(p),
      }));
      expect(r).toMatchObject({ isError: true, structuredContent: { error: { reason: 'approval_timeout' } } });
      expect(progress.length).toBeGreaterThanOrEqual(5);
      expect(progress[0]).toMatchObject({ total: 2500 });
    } finally {
      await mcp.close();
    }
  });
});

describe(`MCP over HTTP, stateless (PALIMPSEST_MCP_STATELESS=1) and --no-auth, on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;

  beforeAll(async () => {
    store = await isolatedStore();
    api = await startApi({ ...store.env, PALIMPSEST_MCP_STATELESS: '1' }, ['--no-auth']);
  });
  afterAll(async () => {
    const stopped = await api?.stop();
    expect(stopped?.code).toBe(0);
    await store?.dispose();
  });

  it('serves every POST on its own, with no session id, and answers GET and DELETE with 405; --no-auth opens /mcp as it opens the routes', async () => {
    const { client, transport } = await connectHttp(api.url, null);
    try {
      expect(transport.sessionId).toBeUndefined();
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(CATALOG.map((op) => op.name)); // the full profile
      const id = (await structuredAnswer(client, 'palimpsest_initialize_target', { filename: 's.md', content: 'stateless\n' })).target_file_id;
      expect(await structuredAnswer(client, 'palimpsest_read_target', { target_file_id: id })).toMatchObject({ status: 'ok', version: 0 });
    } finally {
      await client.close();
    }
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    const list = await fetch(new URL('/mcp', api.url), { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(list.status).toBe(200);
    expect(list.headers.get('mcp-session-id')).toBeNull();
    expect(await list.text()).toContain('palimpsest_read_target');
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(new URL('/mcp', api.url), { method, headers: { accept: 'text/event-stream' } });
      expect({ method, status: r.status, allow: r.headers.get('allow') }).toEqual({ method, status: 405, allow: 'POST' });
      expect(((await r.json()) as { error: { message: string } }).error.message).toContain('PALIMPSEST_MCP_STATELESS');
    }
    const foreign = await fetch(new URL('/mcp', api.url), { method: 'POST', headers: { ...headers, origin: 'http://rebound.example' }, body: '{}' });
    expect(foreign.status).toBe(403); // without authentication the Origin check matters all the more
  });
});
