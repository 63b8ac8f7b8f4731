import { isolatedStore, runCli } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const CLIENTS = 16;

/**
 * The online rebuild over the real wire: 16 clients write and read over HTTP while an operator rebuilds
 * every read model through the route and `palimpsest projections rebuild --online inline` runs beside
 * them (in its own process on PostgreSQL, through the gateway holding an embedded store).
 */
describe(`online rebuild over HTTP and the CLI on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  let auditor: HttpClient;

  beforeAll(async () => {
    store = await isolatedStore();
    const tokens = await seedTokens(store.env, { all: 'read,write,operator', auditor: 'auditor' });
    api = await startApi(store.env);
    http = new HttpClient(api.url, tokens.all!.token);
    auditor = http.withToken(tokens.auditor!.token);
  });
  afterAll(async () => {
    await api?.stop();
    await store?.dispose();
  });

  /** Runs `rebuild` while 16 clients write and read over HTTP; every request they make must succeed. */
  async function whileClientsWork(tag: string, rebuild: () => Promise<void>): Promise<void> {
    let stop = false;
    let requests = 0;
    const failures: unknown[] = [];
    const check = (what: string, r: { status: number; body: any }, ok: (b: any) => boolean) => {
      requests++;
      if (r.status !== 200 && r.status !== 201) failures.push({ what, status: r.status, body: r.body });
      else if (!ok(r.body)) failures.push({ what, body: r.body });
    };
    const client = async (i: number) => {
      const created = await http.post('/v1/targets', { filename: `${tag}${i}.md`, content: `client ${i}\ncounter 0\n` });
      const id = created.body.target_file_id as string;
      for (let n = 0; (!stop || n < 3) && failures.length === 0; n++) {
        const edit = { intent: `step ${n}`, expected_target_version: n, edits: [{ match: `counter ${n}`, replace: `counter ${n + 1}` }] };
        check('edit', await http.post(`/v1/targets/${id}/edits`, edit), (b) => b.status === 'accepted' && b.current_version === n + 1);
        check('get', await http.get(`/v1/targets/${id}`), (b) => String(b.current_content).includes(`counter ${n + 1}`));
        await new Promise((resolve) => setTimeout(resolve, 40)); // a client thinks between requests
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
    // Enough history that the rebuild spans several batches, between which the gateway serves requests.
    while (requests < CLIENTS * 12 && failures.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const before = requests;
    await rebuild().finally(() => (stop = true));
    const during = requests - before;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(during).toBeGreaterThan(0);
  }

  it('fails no request while the route rebuilds and swaps every model', async () => {
    await whileClientsWork('route', async () => {
      const route = await http.post('/v1/projections/rebuild-online', {});
      expect(route).toMatchObject({ status: 200, body: { status: 'ok', equal: true } });
      expect(route.body.rebuilt.map((r: { name: string }) => r.name)).toContain('inline');
    });
    expect((await http.post('/v1/projections/rebuild')).body).toMatchObject({ status: 'ok', equal: true });
  });

  it('fails no request while `projections rebuild --online inline` runs (its own process on PostgreSQL)', async () => {
    await whileClientsWork('cli', async () => {
      const cli = await runCli(['projections', 'rebuild', '--online', 'inline'], { env: store.env }); // not a terminal: plain progress lines
      expect(cli.code).toBe(0);
      expect(JSON.parse(cli.stdout)).toMatchObject({ equal: true, rebuilt: [{ name: 'inline', equal: true, differing: [] }] });
      expect(cli.stderr).toMatch(/inline: (building|switching)|through/);
    });
    expect((await http.post('/v1/projections/rebuild')).body).toMatchObject({ status: 'ok', equal: true });
  });

  it('is an operator route that names what it rebuilds', async () => {
    expect((await auditor.post('/v1/projections/rebuild-online', {})).status).toBe(403);
    const unknown = await http.post('/v1/projections/rebuild-online', { name: 'nope' });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'not_found', reason: 'projection_unknown' } } });
    expect((await http.post('/v1/projections/rebuild-online', { name: 3 })).status).toBe(400);
    const one = await http.post('/v1/projections/rebuild-online', { name: 'inline' });
    expect(one).toMatchObject({ status: 200, body: { status: 'ok', rebuilt: [{ name: 'inline', equal: true, lock_retries: expect.any(Number) }] } });
    const cli = await runCli(['projections', 'rebuild', '--online', 'nope', '--no-progress'], { env: store.env });
    expect(cli.code).not.toBe(0);
  });
});
