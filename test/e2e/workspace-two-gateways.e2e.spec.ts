import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEventLog, type LoggedEvent } from '../support/crash-recovery';
import { isolatedStore } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
type Store = Awaited<ReturnType<typeof isolatedStore>>;

interface Gateway {
  store: Store;
  api: ApiProcess;
  http: HttpClient;
  token: string;
  targetId: string;
}

/** One journal's interval in its store's log: where it started and where its outcome is. */
interface Interval {
  journal_id: string;
  store: number;
  start: LoggedEvent;
  end: LoggedEvent;
}

/**
 * Issue 14 "two gateway processes publishing the same file": on PostgreSQL the two gateways share one
 * database and one target, and the lease is the advisory lock plus the cross-process socket. The embedded
 * store has one owner, so on PGlite each gateway has its own data directory and its own target imported
 * from the same file: the socket lease still serializes them, and once one published, the other's
 * baseline is stale and it answers external_disk_drift (a guard rejection, never an overwrite).
 */
describe(`two palimpsest api processes publishing one workspace file, on ${backend}`, () => {
  let dir: string;
  const gateways: Gateway[] = [];
  const stores: Store[] = [];
  const path = () => join(dir, 'shared.md');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-two-gw-'));
    writeFileSync(path(), 'v0\n');
    const shared = backend === 'postgres' ? await isolatedStore() : null;
    for (let i = 0; i < 2; i++) {
      const store = shared ?? (await isolatedStore());
      if (!stores.includes(store)) stores.push(store);
      const env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir, PALIMPSEST_WORKSPACE_PUBLISH: 'on_save' }; // the saves publish
      const { token } = (await seedTokens(env, { [`gw${i}`]: 'read,write,operator,auditor' }))[`gw${i}`]!;
      const api = await startApi(env, ['--no-local-token']);
      const http = new HttpClient(api.url, token);
      const targetId = i === 1 && shared ? gateways[0]!.targetId : (await http.post('/v1/targets', { filename: 'shared.md', from_workspace: true })).body.target_file_id;
      expect(targetId).toEqual(expect.any(String));
      gateways.push({ store, api, http, token, targetId });
    }
  }, 120_000);
  afterAll(async () => {
    for (const g of gateways) await g.api.stop('SIGKILL');
    for (const s of stores) await s.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serializes concurrent saves through both gateways, each waiting its turn: saved (or drift), one whole version on disk, no interleaved journal', async () => {
    const texts = new Set(['v0\n']);
    const answers: { gw: number; status: number; body: Record<string, any> }[] = [];
    let sampling = true;
    const samples: string[] = [];
    const sampler = (async () => {
      while (sampling) {
        samples.push(readFileSync(path(), 'utf8'));
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (const round of [1, 2]) {
      for (const [i, g] of gateways.entries()) {
        const text = `v${round} from gateway ${i}\n`;
        texts.add(text);
        const current = (await g.http.get(`/v1/targets/${g.targetId}`)).body.version;
        const edited = await g.http.post(`/v1/targets/${g.targetId}/replacement`, { intent: 'rewrite', expected_target_version: current, replacement: text });
        expect(edited.body.status).toBe('accepted');
        if (backend === 'postgres') break; // one shared target: one text per round
      }
      const fired = gateways.flatMap((g, gw) =>
        Array.from({ length: 8 }, () => g.http.post(`/v1/targets/${g.targetId}/checkpoints`, { sync_workspace: true }).then((r) => answers.push({ gw, status: r.status, body: r.body }))),
      );
      await Promise.all(fired);
    }
    sampling = false;
    await sampler;

    const kinds = answers.map((a) => (a.body.status === 'saved' ? 'saved' : a.body.failure_reason));
    // Sixteen saves at once contend for the lease: each waits its turn (within PALIMPSEST_LEASE_WAIT_MS) instead of being refused workspace_busy.
    const allowed = backend === 'postgres' ? ['saved'] : ['saved', 'external_disk_drift'];
    expect(answers.filter((_, i) => !allowed.includes(kinds[i]!))).toEqual([]);
    expect(kinds).toContain('saved');
    expect(samples.length).toBeGreaterThan(0);
    for (const s of samples) expect(texts).toContain(s);

    for (const g of gateways) await g.api.stop();
    const intervals: Interval[] = [];
    for (const [store, s] of stores.entries()) {
      const log = await readEventLog({ ...s.env });
      for (const start of log.filter((e) => e.event_type === 'PublicationStarted')) {
        const end = log.filter((e) => e.stream_id === start.stream_id && e.event_type !== 'PublicationStarted');
        expect(end).toHaveLength(1);
        intervals.push({ journal_id: start.data.journal_id, store, start, end: end[0]! });
      }
    }
    expect(intervals.filter((j) => j.end.event_type === 'PublicationCompleted').length).toBe(kinds.filter((k) => k === 'saved').length);
    assertNoInterleaving(intervals, stores.length === 1);

    const last = intervals.filter((j) => j.end.event_type === 'PublicationCompleted').sort((a, b) => Date.parse(a.end.data.completed_at) - Date.parse(b.end.data.completed_at)).at(-1)!;
    const owner = gateways.find((g, i) => (stores.length === 1 ? i === 0 : i === last.store))!;
    const api = await startApi({ ...owner.store.env, PALIMPSEST_WORKSPACE_ROOT: dir }, ['--no-local-token']);
    try {
      const target = await new HttpClient(api.url, owner.token).get(`/v1/targets/${owner.targetId}`);
      expect(readFileSync(path(), 'utf8')).toBe(target.body.current_content);
    } finally {
      await api.stop();
    }
  }, 180_000);
});

/** No journal starts before another's outcome: by log position in one shared store, by recorded time across stores. */
function assertNoInterleaving(intervals: Interval[], oneLog: boolean): void {
  const at = (e: LoggedEvent) => (oneLog ? e.global_position : Date.parse(e.data.started_at ?? e.data.completed_at ?? e.data.failed_at));
  const sorted = [...intervals].sort((a, b) => at(a.start) - at(b.start));
  for (let i = 1; i < sorted.length; i++) {
    expect(at(sorted[i]!.start)).toBeGreaterThanOrEqual(at(sorted[i - 1]!.end));
  }
}
