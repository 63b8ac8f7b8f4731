import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectPublishedResult } from '@palimpsest/application/file-tools/test-support/published-result';
import { CORRELATION_ID_META } from '@palimpsest/protocol/catalog/operations/audit.operations';
import { isolatedStore, runCli } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';
import { JsonLinesClient } from '../support/json-lines-client';
import { connectHttp, connectMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const FAILING = 'node -e "process.exit(1)"';

/** What an auditor reads of the three calls: edited a.ts, ran the failing command (exit 1), edited a.ts again. */
function expectEditRunEdit(activity: Record<string, any>, correlationId: string, runId: string): void {
  expectPublishedResult('palimpsest_session_activity', activity);
  expect(activity).toMatchObject({ status: 'ok', correlation_id: correlationId, next_after_position: null });
  expect(activity.entries.map((e: any) => [e.kind, e.tool, e.path ?? e.what, e.status, e.exit_code])).toEqual([
    ['edit', 'edit_file', 'a.ts', 'accepted', null],
    ['command', 'run_command', FAILING, 'exited', 1],
    ['edit', 'edit_file', 'a.ts', 'accepted', null],
  ]);
  expect(activity.entries[1].run_id).toBe(runId);
  expect(activity.entries.map((e: any) => e.version)).toEqual([1, null, 2]);
}

describe(`one session's edits and command runs under one correlation id, over real MCP stdio on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'palimpsest-e2e-session-mcp-')));
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir };
    expect((await runCli(['migrate'], { env })).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('an agent edits, runs a failing command, edits again; the audit read answers the three in order, and every result names the session', async () => {
    writeFileSync(join(dir, 'a.ts'), 'const a = 1;\n');
    const mcp = await connectMcp(env);
    try {
      const call = async (name: string, args: Record<string, unknown>) => (await mcp.client.callTool({ name, arguments: args })) as Record<string, any>;
      const first = await call('edit_file', { path: 'a.ts', oldString: 'const a = 1;', newString: 'const a = 2;' });
      expect(first.structuredContent).toMatchObject({ status: 'ok' });
      const session = first._meta?.[CORRELATION_ID_META] as string;
      expect(session).toEqual(expect.any(String));
      const ran = await call('run_command', { command: FAILING });
      expect(ran.structuredContent).toMatchObject({ status: 'ok', exitCode: 1 });
      expect((await call('edit_file', { path: 'a.ts', oldString: 'const a = 2;', newString: 'const a = 3;' })).structuredContent).toMatchObject({ status: 'ok' });
      const activity = await call('palimpsest_session_activity', { correlation_id: session });
      for (const r of [ran, activity]) expect(r._meta).toEqual({ [CORRELATION_ID_META]: session });
      expectEditRunEdit(activity.structuredContent, session, ran.structuredContent.runId);
      const listed = await call('palimpsest_list_sessions', {});
      expect(listed.structuredContent.sessions[0]).toMatchObject({ correlation_id: session, edits: 2, command_runs: 1 });
    } finally {
      await mcp.close();
    }
  }, 60_000);

  it('PALIMPSEST_CORRELATION_ID names the session of a stdio server and of `palimpsest call`, which tells it on stderr', async () => {
    const mcp = await connectMcp({ ...env, PALIMPSEST_CORRELATION_ID: 'ci-job-42' });
    try {
      const r = (await mcp.client.callTool({ name: 'run_command', arguments: { command: 'node --version' } })) as Record<string, any>;
      expect(r._meta).toEqual({ [CORRELATION_ID_META]: 'ci-job-42' });
    } finally {
      await mcp.close();
    }
    const called = await runCli(['call', 'run_command', '--args', JSON.stringify({ command: 'node --version' })], { env: { ...env, PALIMPSEST_CORRELATION_ID: 'ci-job-42' } });
    expect(called.code).toBe(0);
    expect(called.stderr).toContain('palimpsest call: correlation id ci-job-42\n');
    const read = await runCli(['call', 'palimpsest_session_activity', '--args', JSON.stringify({ correlation_id: 'ci-job-42' })], { env });
    expect(JSON.parse(read.stdout).entries.map((e: any) => [e.what, e.status, e.exit_code])).toEqual([['node --version', 'exited', 0], ['node --version', 'exited', 0]]);
    expect(read.stderr).toMatch(/^palimpsest call: correlation id [0-9a-f-]{36}\n$/);
    const bad = await runCli(['call', 'palimpsest_capabilities'], { env: { ...env, PALIMPSEST_CORRELATION_ID: 'not one' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('PALIMPSEST_CORRELATION_ID');
  }, 60_000);

  it('a JSON-lines connection is one session, told on stderr; the same connection reads it back', async () => {
    writeFileSync(join(dir, 'c.ts'), 'let c = 1;\n');
    const serve = new JsonLinesClient([], env);
    try {
      const edited = await serve.call('edit_file', { path: 'c.ts', oldString: 'let c = 1;', newString: 'let c = 2;' });
      expect(edited.result).toMatchObject({ status: 'ok' });
      const ran = await serve.call('run_command', { command: FAILING });
      expect(ran.result).toMatchObject({ status: 'ok', exitCode: 1 });
      const session = /palimpsest serve: correlation id ([0-9a-f-]{36})\n/.exec(serve.stderr)?.[1];
      expect(session).toEqual(expect.any(String));
      const read = await serve.call('palimpsest_session_activity', { correlation_id: session });
      expect(read.result.entries.map((e: any) => [e.kind, e.path ?? e.what, e.status, e.exit_code])).toEqual([
        ['edit', 'c.ts', 'accepted', null],
        ['command', FAILING, 'exited', 1],
      ]);
    } finally {
      serve.end();
      expect((await serve.exited).code).toBe(0);
    }
  }, 60_000);
});

describe(`one session's edits and command runs under one correlation id, over real HTTP on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let api: ApiProcess;
  let agent: HttpClient;
  let auditor: HttpClient;
  let reader: HttpClient;
  let reviewed: HttpClient;
  let agentToken: string;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'palimpsest-e2e-session-http-')));
    const env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir };
    const tokens = await seedTokens(env, { agent: 'read,write,operator', auditor: 'auditor', reader: 'read', reviewed: 'read,write' }, { reviewed: { mode: 'allow_all', approve: true } });
    api = await startApi(env, ['--no-local-token']);
    agentToken = tokens.agent!.token;
    agent = new HttpClient(api.url, agentToken);
    auditor = new HttpClient(api.url, tokens.auditor!.token);
    reader = new HttpClient(api.url, tokens.reader!.token);
    reviewed = new HttpClient(api.url, tokens.reviewed!.token);
  }, 120_000);
  afterAll(async () => {
    expect((await api.stop()).code).toBe(0);
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('X-Correlation-Id ties an edit, a failing run and an edit together; an auditor token reads them in order', async () => {
    writeFileSync(join(dir, 'a.ts'), 'const a = 1;\n');
    const headers = { 'x-correlation-id': 'agent-7.run:1' };
    const first = await agent.post('/v1/files/edit', { path: 'a.ts', oldString: 'const a = 1;', newString: 'const a = 2;' }, { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-correlation-id')).toBe('agent-7.run:1');
    const ran = await agent.post('/v1/commands/runs', { command: FAILING }, { headers });
    expect(ran.body).toMatchObject({ status: 'ok', exitCode: 1 });
    expect((await agent.post('/v1/files/edit', { path: 'a.ts', oldString: 'const a = 2;', newString: 'const a = 3;' }, { headers })).status).toBe(200);

    const activity = await auditor.get('/v1/audit/sessions/agent-7.run:1');
    expect(activity.status).toBe(200);
    expectEditRunEdit(activity.body, 'agent-7.run:1', ran.body.runId);
    const sessions = await auditor.get('/v1/audit/sessions', { limit: 5 });
    expect(sessions.status).toBe(200);
    expect(sessions.body.sessions[0]).toMatchObject({ correlation_id: 'agent-7.run:1', edits: 2, command_runs: 1 });
    expect((await reader.get('/v1/audit/sessions')).status).toBe(403);
  }, 60_000);

  it('without the header each request is its own session, answered in X-Correlation-Id; a malformed one is refused before anything runs', async () => {
    const alone = await agent.post('/v1/commands/runs', { command: 'node --version' });
    const id = alone.headers.get('x-correlation-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const read = await auditor.get(`/v1/audit/sessions/${id}`);
    expect(read.body.entries).toEqual([expect.objectContaining({ run_id: alone.body.runId, status: 'exited', exit_code: 0 })]);
    const other = await agent.post('/v1/commands/runs', { command: 'node --version' });
    expect(other.headers.get('x-correlation-id')).not.toBe(id);
    const bad = await agent.post('/v1/commands/runs', { command: 'touch marker' }, { headers: { 'x-correlation-id': 'has space' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_arguments', reason: 'invalid_correlation_id' });
    expect(existsSync(join(dir, 'marker'))).toBe(false);
  }, 60_000);

  it('an MCP session over HTTP is one correlation id, its Mcp-Session-Id; command approvals are listed through the gateway', async () => {
    writeFileSync(join(dir, 'b.ts'), 'let b = 1;\n');
    const { client, transport } = await connectHttp(api.url, agentToken);
    try {
      const edited = (await client.callTool({ name: 'edit_file', arguments: { path: 'b.ts', oldString: 'let b = 1;', newString: 'let b = 2;' } })) as Record<string, any>;
      expect(edited.structuredContent).toMatchObject({ status: 'ok' });
      expect(edited._meta).toEqual({ [CORRELATION_ID_META]: transport.sessionId });
      const read = await auditor.get(`/v1/audit/sessions/${transport.sessionId}`);
      expect(read.body.entries).toEqual([expect.objectContaining({ kind: 'edit', path: 'b.ts', status: 'accepted' })]);
    } finally {
      await client.close();
    }
    const approvals = await agent.get('/v1/approvals/commands', { status: 'all' });
    expect(approvals.status).toBe(200);
    expect(approvals.body).toEqual({ status: 'ok', approvals: [] });
    expect((await agent.get('/v1/approvals/commands', { status: 'bogus' })).status).toBe(400);
  }, 60_000);

  it('a command held for a person is listed at /v1/approvals/commands and granted through /v1/approvals/{id}/approve; the session shows it ran', async () => {
    const headers = { 'x-correlation-id': 'reviewed-1' };
    const asked = reviewed.post('/v1/commands/runs', { command: 'touch granted-marker' }, { headers });
    let pending: Record<string, any> | undefined;
    const deadline = Date.now() + 20_000;
    while (!pending && Date.now() < deadline) {
      pending = (await agent.get('/v1/approvals/commands')).body.approvals.find((a: any) => a.command === 'touch granted-marker');
      if (!pending) await new Promise((r) => setTimeout(r, 50));
    }
    expect(pending).toMatchObject({ status: 'pending', rule: 'approve: true', run_id: expect.any(String), approval_id: expect.any(String) });
    expect(existsSync(join(dir, 'granted-marker'))).toBe(false);
    const waiting = await auditor.get('/v1/audit/sessions/reviewed-1');
    expect(waiting.body.entries).toEqual([expect.objectContaining({ run_id: pending!.run_id, status: 'awaiting_approval', exit_code: null })]);
    const granted = await agent.post(`/v1/approvals/${pending!.approval_id}/approve`, { note: 'fine' });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ status: 'ok', command_approval: { status: 'granted', note: 'fine' } });
    expect((await asked).body).toMatchObject({ status: 'ok', exitCode: 0, runId: pending!.run_id });
    expect(existsSync(join(dir, 'granted-marker'))).toBe(true);
    const ran = await auditor.get('/v1/audit/sessions/reviewed-1');
    expect(ran.body.entries).toEqual([expect.objectContaining({ run_id: pending!.run_id, status: 'exited', exit_code: 0 })]);
    expect((await agent.get('/v1/approvals/commands')).body.approvals).toEqual([]);
  }, 60_000);
});
