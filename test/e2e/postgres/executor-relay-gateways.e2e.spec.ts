import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedStore } from '../../support/cli-process';
import { rawLink, startConnect, waitFor, type ConnectProcess } from '../../support/executor-link-client';
import { HttpClient } from '../../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../../support/http-server';

type Listed = { slug: string; online: boolean };
/** A relayed file call's deadline here: how long a call handed to a gateway that died is waited for. */
const RELAY_TIMEOUT_MS = 3_000;

/**
 * Two real `palimpsest api` gateways on one PostgreSQL database and a real `palimpsest connect` connected
 * to the first: a client of the second sees the project online and calls it there, the call handed over
 * through the database to the gateway holding the executor, answered once on the shared record.
 */
describe('executor relay across two gateways on one PostgreSQL database', () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let a: ApiProcess;
  let b: ApiProcess;
  let onA: HttpClient;
  let onB: HttpClient;
  let root: string;
  let site: string;
  let executor: ConnectProcess;
  let siteToken: string;
  let rawToken: string;
  const listed = async (http: HttpClient) => (await http.get('/v1/projects')).body.projects as Listed[];

  beforeAll(async () => {
    store = await isolatedStore();
    const tokens = await seedTokens(store.env, { site: 'executor', raw: 'executor', agent: 'read,write' });
    rawToken = tokens.raw!.token;
    const env = { ...store.env, PALIMPSEST_RELAY_TIMEOUT_MS: String(RELAY_TIMEOUT_MS) };
    [a, b] = await Promise.all([startApi(env, ['--no-local-token']), startApi(env, ['--no-local-token'])]);
    onA = new HttpClient(a.url, tokens.agent!.token);
    onB = new HttpClient(b.url, tokens.agent!.token);
    root = mkdtempSync(join(tmpdir(), 'palimpsest-relay-gateways-'));
    site = mkdtempSync(join(root, 'site-'));
    writeFileSync(join(site, 'notes.txt'), 'alpha\n');
    siteToken = tokens.site!.token;
    executor = startConnect(a.url, siteToken, { site });
    await waitFor(() => Promise.resolve(executor.stderr()), (s) => /project site ready/.test(s) && /connected to/.test(s), 60_000, 'the executor connected to the first gateway');
  }, 120_000);

  afterAll(async () => {
    await executor?.stop();
    await a?.stop();
    await b?.stop();
    await store?.dispose();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('lists the project online on the other gateway and answers its calls there, once per key', async () => {
    expect(await waitFor(() => listed(onB), (l) => l.some((p) => p.slug === 'site' && p.online), 15_000, 'the second gateway sees the project')).toEqual([
      { id: expect.stringMatching(/^prj_/), slug: 'site', online: true, active: false },
    ]);
    const edit = { project: 'site', path: 'notes.txt', oldString: 'alpha', newString: 'beta', client_request_id: 'across-1' };
    const edited = (await onB.post('/v1/files/edit', edit)).body;
    expect(edited).toMatchObject({ status: 'ok', replacements: 1 });
    expect(readFileSync(join(site, 'notes.txt'), 'utf8')).toBe('beta\n');
    // The same key, on either gateway, answers the recorded answer and applies nothing again.
    expect((await onB.post('/v1/files/edit', edit)).body).toEqual(edited);
    expect((await onA.post('/v1/files/edit', edit)).body).toEqual(edited);
    expect(readFileSync(join(site, 'notes.txt'), 'utf8')).toBe('beta\n');
    expect((await onB.get('/v1/files/content', { project: 'site', path: 'notes.txt' })).body).toMatchObject({ status: 'ok', content: 'beta\n' });
    expect((await onB.post('/v1/commands/runs', { project: 'site', command: 'cat notes.txt' })).body).toMatchObject({ status: 'ok', exitCode: 0, stdout: 'beta\n' });

    // Another executor token cannot announce that project id on the other gateway to take its calls.
    const [held] = await listed(onB);
    const thief = await rawLink(`${b.url.replace(/^http/, 'ws')}/v1/executors/connect`, rawToken);
    if (!('ws' in thief)) throw new Error(`upgrade refused: ${thief.status}`);
    thief.send({ type: 'hello', protocolVersion: 1, deviceId: 'dev_thief', cliVersion: 'raw', platform: 'test', projects: [{ id: (held as Listed & { id: string }).id, slug: 'loot' }] });
    expect(await thief.closed).toEqual({ code: 4422, reason: expect.stringMatching(/^invalid_hello: project "loot" \(prj_\w+\) belongs to another executor \(on another gateway\)$/) });
    expect(await listed(onB)).toEqual([{ id: (held as Listed & { id: string }).id, slug: 'site', online: true, active: false }]);
  });

  it('lists it away on the other gateway once its executor is gone, answers it there as the first does, and follows it to whichever gateway it comes back to', async () => {
    await executor.stop();
    await waitFor(() => listed(onB), (l) => l.length === 1 && !l[0]!.online, 15_000, 'the second gateway sees the project away');
    expect(await listed(onA)).toEqual([expect.objectContaining({ slug: 'site', online: false })]);
    const edit = { project: 'site', path: 'notes.txt', oldString: 'beta', newString: 'gamma' };
    const away = { status: 'invalid_argument', code: 'LOCAL_EXECUTOR_OFFLINE', answer: 'LOCAL_EXECUTOR_OFFLINE', outcome: 'not_applied' };
    expect((await onB.post('/v1/files/edit', { ...edit, client_request_id: 'away-b-1' })).body).toMatchObject(away);
    expect((await onA.post('/v1/files/edit', { ...edit, client_request_id: 'away-a-1' })).body).toMatchObject(away);

    // Back on the second gateway: the first, where it is still away, lists it online from there and hands its calls over.
    executor = startConnect(b.url, siteToken, { site });
    await waitFor(() => listed(onA), (l) => l.length === 1 && l[0]!.online, 60_000, 'the first gateway sees it online on the second');
    expect((await onA.post('/v1/files/edit', { ...edit, client_request_id: 'back-on-b-1' })).body).toMatchObject({ status: 'ok' });
    expect(readFileSync(join(site, 'notes.txt'), 'utf8')).toBe('gamma\n');
    // A negative claim over time: through one presence renewal (5 s) of the first gateway, which still holds it away, it stays online.
    for (const until = Date.now() + 6_000; Date.now() < until;) expect(await listed(onA)).toEqual([expect.objectContaining({ slug: 'site', online: true })]);
    await executor.stop();
    await waitFor(() => listed(onA), (l) => l.length === 1 && !l[0]!.online, 15_000, 'away again');
  }, 120_000);

  it('answers a call handed to a gateway that was killed with the outcome unknown by its deadline, and stops listing its projects online', async () => {
    executor = startConnect(a.url, siteToken, { site });
    await waitFor(() => listed(onB), (l) => l.some((p) => p.slug === 'site' && p.online), 60_000, 'the second gateway sees the project again');
    await a.stop('SIGKILL');
    const started = Date.now();
    const answer = (await onB.post('/v1/files/edit', { project: 'site', path: 'notes.txt', oldString: 'beta', newString: 'gamma', client_request_id: 'across-dead-1' })).body;
    expect(answer).toMatchObject({ code: 'LOCAL_EXECUTOR_OFFLINE', outcome: 'unknown', client_request_id: 'across-dead-1' });
    expect(Date.now() - started).toBeLessThan(RELAY_TIMEOUT_MS + 10_000);
    // Its presence lapses without renewal: the second gateway lists the project away, as its own executor left it there.
    await waitFor(() => listed(onB), (l) => l.length === 1 && !l[0]!.online, 40_000, 'the killed gateway\'s presence lapsed');
    await executor.stop();
  }, 90_000);
});
