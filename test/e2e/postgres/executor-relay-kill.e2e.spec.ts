import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '@palimpsest/store/open-db';
import { running } from '@palimpsest/workspace/test-support/process-watch';
import { isolatedStore } from '../../support/cli-process';
import { startConnect, waitFor, type ConnectProcess } from '../../support/executor-link-client';
import { HttpClient } from '../../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** Until `pid` has ended (a zombie not yet reaped by the process it was reparented to has ended too). */
const ended = (pid: number) => waitFor(() => Promise.resolve(running(pid)), (r) => !r, 10_000, `process ${pid} ended`);

/**
 * A real `palimpsest api` and real `palimpsest connect` processes: an executor SIGKILLed while a relayed
 * command runs, and an executor whose token is revoked. Each caller gets an answer it can act on, and the
 * records (the gateway's and the executor's) say what happened.
 */
describe(`executor relay: an executor killed mid-command, and a revoked one (palimpsest api → palimpsest connect) on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  let tokens: Record<string, { token: string; token_id: string }>;
  let root: string;
  let site: string;
  let executor: ConnectProcess;

  const siteOnline = async () => ((await http.get('/v1/projects')).body.projects as { slug: string; online: boolean }[]).some((p) => p.slug === 'site' && p.online);
  const ready = (e: ConnectProcess) => waitFor(() => Promise.resolve(e.stderr()), (s) => /project site ready/.test(s) && /connected to/.test(s), 60_000, 'the executor connected and its project ready');

  beforeAll(async () => {
    store = await isolatedStore();
    tokens = await seedTokens(store.env, { site: 'executor', heir: 'executor', agent: 'read,write', admin: 'read,write,operator,auditor' });
    api = await startApi(store.env, ['--no-local-token']);
    http = new HttpClient(api.url, tokens.agent!.token);
    root = mkdtempSync(join(tmpdir(), 'palimpsest-relay-kill-'));
    site = mkdtempSync(join(root, 'site-'));
    // The command records its pid, then becomes the sleep (exec): the run's process group is that pid.
    writeFileSync(join(site, 'slow.sh'), 'echo $$ > started.pid\nexec sleep 120\n');
    executor = startConnect(api.url, tokens.site!.token, { site });
    await ready(executor);
    await waitFor(siteOnline, Boolean, 30_000, 'the project online');
  }, 120_000);

  afterAll(async () => {
    await executor?.stop();
    await api?.stop();
    await store?.dispose();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('answers a run_command whose executor was SIGKILLed mid-run LOCAL_EXECUTOR_OFFLINE with the outcome unknown, on both records', async () => {
    const key = 'run-killed-1';
    const body = { project: 'site', command: 'sh slow.sh', timeoutMs: 120_000, client_request_id: key };
    const asked = http.post('/v1/commands/runs', body);
    const pid = await waitFor(async () => (existsSync(join(site, 'started.pid')) ? Number(readFileSync(join(site, 'started.pid'), 'utf8')) : 0), (n) => n > 0, 30_000, 'the command started');
    process.kill(executor.pid, 'SIGKILL');
    expect(await executor.exited).toEqual({ code: null, signal: 'SIGKILL' });

    executor = startConnect(api.url, tokens.site!.token, { site });
    const answer = (await asked).body;
    expect(answer).toMatchObject({
      status: 'invalid_argument',
      code: 'LOCAL_EXECUTOR_OFFLINE',
      answer: 'LOCAL_EXECUTOR_OFFLINE',
      retryable: 'none',
      outcome: 'unknown',
      runId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      failure_detail: expect.stringMatching(/^run_command in project site: its executor stopped while the command ran .*killed .*Tell the user/),
      next_actions: [{ operation: 'run_command', reason: expect.stringMatching(/new client_request_id/), params: { command: 'sh slow.sh', timeoutMs: 120_000 } }],
    });
    // Nothing of the run is left (its group is stopped with the executor, or by the restart's cleanup).
    await ended(pid);
    // The same key answers the same, from the gateway's record.
    const again = (await http.post('/v1/commands/runs', body)).body;
    expect({ ...again, error: { ...again.error, trace_id: null } }).toEqual({ ...answer, error: { ...answer.error, trace_id: null } });

    // The executor's record: the run killed at the restart (its outcome unknown), and the call answered.
    await executor.stop();
    const local = await openDb({ dataDir: join(site, '.palimpsest', 'data') });
    try {
      const run = await local.query<{ event_type: string; reason: string | null }>(
        `SELECT event_type, data->>'reason' AS reason FROM events WHERE stream_id = $1 ORDER BY stream_version`,
        [`command-run-${answer.runId}`],
      );
      // The kill may land before the start was committed: the run is settled either way.
      expect(run.rows.filter((r) => r.event_type !== 'CommandStarted')).toEqual([
        { event_type: 'CommandRequested', reason: null },
        { event_type: 'CommandKilled', reason: 'crash_cleanup' },
      ]);
      const relayed = await local.query<{ status: string }>(`SELECT data->>'status' AS status FROM events WHERE event_type = 'RelayCallAnswered'`);
      expect(relayed.rows).toEqual([{ status: 'invalid_argument' }]);
    } finally {
      await local.close();
    }
    executor = startConnect(api.url, tokens.site!.token, { site });
    await ready(executor);
  }, 120_000);

  it('answers for a started command the restart stopped from the record: its end, a kill as already done, input as not written', async () => {
    await waitFor(siteOnline, Boolean, 30_000, 'the project online');
    const started = (await http.post('/v1/commands', { project: 'site', command: 'sleep 120', client_request_id: 'start-killed-1' })).body;
    expect(started).toMatchObject({ status: 'ok', processId: expect.any(String), pid: expect.any(Number) });
    process.kill(executor.pid, 'SIGKILL');
    await executor.exited;
    executor = startConnect(api.url, tokens.site!.token, { site });
    await ready(executor);
    await waitFor(siteOnline, Boolean, 30_000, 'the project online again');
    await ended(started.pid); // the restart's cleanup stopped its group

    const id = started.processId as string;
    // SIGTERM when the cleanup stopped its group; null when it was gone by then (the cleanup's record says which).
    const output = (await http.get(`/v1/commands/${id}/output`, { project: 'site', cursor: '0' })).body;
    expect(['SIGTERM', null]).toContain(output.signal);
    expect(output).toMatchObject({ status: 'ok', processId: id, chunk: '', running: false, exitCode: null });
    expect((await http.post(`/v1/commands/${id}/kill`, { project: 'site', client_request_id: 'kill-after-restart-1' })).body).toEqual({ status: 'ok', processId: id, killed: false, exitCode: null, signal: output.signal });
    expect((await http.post(`/v1/commands/${id}/input`, { project: 'site', data: 'y', client_request_id: 'input-after-restart-1' })).body).toMatchObject({
      status: 'rejected',
      code: 'process_not_running',
      answer: 'TOOL_FAILED',
      failure_detail: expect.stringMatching(/stopped when the process that ran it restarted \((terminated|nothing of it was left)\)\. Nothing was written/),
    });
    expect((await http.post('/v1/commands/cmd-never-started/kill', { project: 'site' })).body).toMatchObject({ status: 'not_found', code: 'PROCESS_NOT_FOUND', answer: 'INVALID_ARGUMENTS' });
  }, 120_000);

  it('releases a revoked token\'s projects and closes its link: another executor\'s token claims them', async () => {
    await waitFor(siteOnline, Boolean, 30_000, 'the project online');
    const admin = new HttpClient(api.url, tokens.admin!.token);
    expect((await admin.post(`/v1/admin/tokens/${tokens.site!.token_id}/revoke`, {})).status).toBe(200);
    expect((await executor.exited).code).not.toBe(0);
    expect(executor.stderr()).toMatch(/closed 4401: token_revoked: the token was revoked/);
    // Released, not merely offline: no caller waits for it, and nothing lists it.
    expect(((await http.get('/v1/projects')).body.projects as { slug: string }[]).map((p) => p.slug)).toEqual([]);
    expect((await http.post('/v1/files/content', { project: 'site', path: 'orphan.txt', content: 'x\n' })).body).toMatchObject({ status: 'not_found', code: 'UNKNOWN_PROJECT' });

    // The same machine and directory (so the same device and project id) under another executor token.
    executor = startConnect(api.url, tokens.heir!.token, { site });
    await ready(executor);
    expect(((await http.get('/v1/projects')).body.projects as { slug: string; online: boolean }[]).map((p) => [p.slug, p.online])).toEqual([['site', true]]);
    expect((await http.post('/v1/files/content', { project: 'site', path: 'heir.txt', content: 'claimed\n', client_request_id: 'heir-1' })).body).toMatchObject({ status: 'ok', created: true });
    expect(readFileSync(join(site, 'heir.txt'), 'utf8')).toBe('claimed\n');
  }, 120_000);

  it('keeps on the gateway\'s record every call as sent once and answered once, with what its caller got', async () => {
    await executor.stop();
    expect((await api.stop()).code).toBe(0);
    const db = store.env.DATABASE_URL ? await openDb({ databaseUrl: store.env.DATABASE_URL }) : await openDb({ dataDir: store.env.PALIMPSEST_DATA_DIR! });
    try {
      const { rows } = await db.query<{ key: string; type: string; status: string | null; code: string | null }>(
        `SELECT s.data->>'key' AS key, e.event_type AS type, e.data->>'status' AS status, e.data->'answer'->>'code' AS code
           FROM events e JOIN events s ON s.stream_id = e.stream_id AND s.event_type = 'RelayCallSent'
          WHERE e.stream_id LIKE 'relay-call-%' ORDER BY s.data->>'key', e.stream_version`,
      );
      const named = ['heir-1', 'input-after-restart-1', 'kill-after-restart-1', 'run-killed-1', 'start-killed-1'];
      expect(rows.filter((r) => named.includes(r.key))).toEqual([
        { key: 'heir-1', type: 'RelayCallSent', status: null, code: null },
        { key: 'heir-1', type: 'RelayCallAnswered', status: 'ok', code: null },
        { key: 'input-after-restart-1', type: 'RelayCallSent', status: null, code: null },
        { key: 'input-after-restart-1', type: 'RelayCallAnswered', status: 'rejected', code: 'process_not_running' },
        { key: 'kill-after-restart-1', type: 'RelayCallSent', status: null, code: null },
        { key: 'kill-after-restart-1', type: 'RelayCallAnswered', status: 'ok', code: null },
        { key: 'run-killed-1', type: 'RelayCallSent', status: null, code: null },
        { key: 'run-killed-1', type: 'RelayCallAnswered', status: 'invalid_argument', code: 'LOCAL_EXECUTOR_OFFLINE' },
        { key: 'start-killed-1', type: 'RelayCallSent', status: null, code: null },
        { key: 'start-killed-1', type: 'RelayCallAnswered', status: 'ok', code: null },
      ]);
      // The calls sent without a key (a read, a kill of an unknown process) were keyed by the gateway, each sent and answered once.
      const others = rows.filter((r) => !named.includes(r.key));
      expect(others.map((r) => r.type)).toEqual(others.map((_, i) => (i % 2 ? 'RelayCallAnswered' : 'RelayCallSent')));
      expect(new Set(others.map((r) => r.key)).size).toBe(others.length / 2);
    } finally {
      await db.close();
    }
  });
});
