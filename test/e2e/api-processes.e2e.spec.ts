import { isolatedStore, runCli } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const CLIENTS = 24;
const REQUESTS = 600;
const TARGETS = 6;

/**
 * Gateways as separate processes on one store. On PostgreSQL: two of them, many clients writing the
 * same few targets through both, so each process's optimistic (and batched) commits keep meeting
 * heads the other one moved. On PGlite the data directory belongs to one process: a second refuses.
 */
describe(`palimpsest api: several gateway processes on one ${backend} store`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  const gateways: ApiProcess[] = [];
  let token: string;

  beforeAll(async () => {
    store = await isolatedStore();
    token = (await seedTokens(store.env, { all: 'read,write,auditor,operator' })).all!.token;
    gateways.push(await startApi(store.env, ['--no-local-token']));
  });
  afterAll(async () => {
    for (const gateway of gateways) expect((await gateway.stop()).code).toBe(0);
    await store.dispose();
  });

  if (backend === 'pglite') {
    it('a second gateway on the same data directory refuses to start, saying which process holds it', async () => {
      const second = await runCli(['api', '--port', '0', '--no-local-token'], { env: store.env });
      expect(second.code).not.toBe(0);
      expect(second.stderr).toMatch(/data directory/i);
      expect((await new HttpClient(gateways[0]!.url, token).get('/health')).status).toBe(200);
    });
  }

  if (backend === 'postgres') {
    it('two gateways, one set of targets: every version accepted once, no 5xx, every target replays to its text', async () => {
      gateways.push(await startApi(store.env, ['--no-local-token']));
      const [a, b] = gateways.map((g) => new HttpClient(g.url, token));
      const ids: string[] = [];
      for (let t = 0; t < TARGETS; t++) ids.push((await a!.post('/v1/targets', { filename: `p${t}.md`, content: '<0>\n' })).body.target_file_id);
      for (const id of ids) expect((await b!.get(`/v1/targets/${id}`)).status).toBe(200); // b knows every head too

      const known = new Map(ids.map((id) => [id, 0]));
      const accepted = new Map(ids.map((id) => [id, 0]));
      const statuses: number[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, c) => {
          for (let n = next++; n < REQUESTS; n = next++) {
            const http = (n + c) % 2 === 0 ? a! : b!;
            const id = ids[n % TARGETS]!;
            const v = known.get(id)!;
            const r = await http.post(`/v1/targets/${id}/edits`, { intent: 'race', edits: [{ match: `<${v}>`, replace: `<${v + 1}>` }] }, { headers: { 'if-match': `"${v}"` } });
            statuses.push(r.status);
            if (r.body?.status === 'accepted') accepted.set(id, accepted.get(id)! + 1);
            if (typeof r.body?.current_version === 'number') known.set(id, Math.max(known.get(id)!, r.body.current_version));
          }
        }),
      );

      expect(statuses).toHaveLength(REQUESTS);
      expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]); // accepted, or a stale guard with the current version
      for (const id of ids) {
        const target = (await b!.get(`/v1/targets/${id}`)).body;
        expect({ id, version: target.version }).toEqual({ id, version: accepted.get(id) });
        expect((await a!.get(`/v1/targets/${id}/text`)).text).toContain(`<${target.version}>`);
        expect((await b!.post(`/v1/targets/${id}/replay`)).body).toMatchObject({ status: 'success', materialized_state_matches: true });
      }
      expect((await a!.post('/v1/projections/rebuild')).body).toMatchObject({ status: 'ok', equal: true });
      // The one-statement (batched) path took part: a process whose heads keep moving falls back to the lock.
      let optimistic = 0;
      for (const http of [a!, b!]) {
        const metrics = (await http.get('/metrics', undefined, { token: null })).text;
        optimistic += Number(/palimpsest_commit_batch_size_sum (\d+)/.exec(metrics)?.[1] ?? 0);
      }
      expect(optimistic).toBeGreaterThan(0);
    });
  }
});
