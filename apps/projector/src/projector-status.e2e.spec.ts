import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { spawn } from 'node:child_process';
import { CLI_BIN, isolatedStore, REPO_ROOT, runCli } from '../../../test/support/cli-process';
import { HttpClient } from '../../../test/support/http-client';
import { startApi, type ApiProcess } from '../../../test/support/http-server';
import { spawnRecordingProjector, type ProjectorProcess } from './test-support/projector-process';
import { createRecordingTable } from './test-support/recording.projection';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const NAME = 'test-status';
const THRESHOLD_S = 2;

interface Consumer {
  name: string;
  state: string;
  leader: string | null;
  lag_events: number;
  lag_seconds: number;
  checkpoint: { position: number };
}

/**
 * What operators see, over the built gateway and CLI: /health's projections indicator, /metrics'
 * gauges and `palimpsest projections status`. On PostgreSQL a real projector process (the recording
 * test projection) leads beside the gateway and is then SIGKILLed; on the embedded store the gateway's
 * own in-process projector runs the registered projections, and the CLI goes through the gateway.
 */
describe(`projection status in /health, /metrics and projections status (${backend})`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await isolatedStore();
    env = { ...store.env, PALIMPSEST_PROJECTION_LAG_DEGRADED_S: String(THRESHOLD_S) };
    if (backend === 'postgres') await withStore((db) => createRecordingTable(db, 'recorded_status'));
    api = await startApi(env, ['--no-auth']);
    http = new HttpClient(api.url, null);
  });

  afterAll(async () => {
    await api?.stop();
    await store?.dispose();
  });

  async function withStore<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    const db = await openDb({ databaseUrl: env.DATABASE_URL! });
    try {
      await migrate(db);
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  async function health(): Promise<{ status: number; body: any }> {
    const answer = await http.get('/health', undefined, { token: null });
    return { status: answer.status, body: answer.body };
  }

  async function consumerInHealth(until: (c: Consumer | undefined) => boolean): Promise<Consumer | undefined> {
    const deadline = performance.now() + 15_000;
    for (;;) {
      const c = ((await health()).body.info.projections.consumers as Consumer[]).find((x) => x.name === NAME);
      if (until(c) || performance.now() > deadline) return c;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function cliStatus(): Promise<{ status: string; consumers: Consumer[] }> {
    const r = await runCli(['projections', 'status', '--json'], { env });
    expect(`exit ${r.code}\n${r.stderr}`).toMatch(/^exit 0\n/);
    return JSON.parse(r.stdout);
  }

  it('lists the consumers with the threshold and exports the threshold gauge', async () => {
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.info.projections).toMatchObject({ status: 'up', lag_threshold_seconds: THRESHOLD_S, consumers: expect.any(Array) });
    const metrics = (await http.get('/metrics', undefined, { token: null })).text;
    expect(metrics).toContain(`palimpsest_projection_lag_degraded_seconds ${THRESHOLD_S}`);
    const cli = await cliStatus(); // through the gateway on the embedded store, from the database on PostgreSQL
    expect(cli).toMatchObject({ lag_threshold_seconds: THRESHOLD_S });
    expect(cli.consumers.map((c) => c.name)).toEqual((body.info.projections.consumers as Consumer[]).map((c) => c.name));
  });

  if (backend === 'pglite') {
    it('refuses `palimpsest projector` on the embedded store the gateway owns, saying the gateway runs it', async () => {
      const r = await runCli(['projector'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/data directory is in use by pid \d+ .*runs its projector in-process.*DATABASE_URL/);
    });
  }

  if (backend === 'postgres') {
    it('runs `palimpsest projector` as its own process until SIGTERM, then exits 0', async () => {
      const child = spawn(process.execPath, [CLI_BIN, 'projector'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes('palimpsest projector: ready')) resolve();
        });
        void exited.then((code) => reject(new Error(`palimpsest projector exited ${code}:\n${stderr}`)));
      });
      expect(stderr).toMatch(/store PostgreSQL .*; \S+:\d+ following /);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).toContain('palimpsest projector: stopped');
    });

    it('shows a projector process leading, caught up, then stopped and lagging (degraded) once it is SIGKILLed', async () => {
      let projector: ProjectorProcess | undefined = spawnRecordingProjector(env, { name: NAME, table: 'recorded_status' });
      try {
        await projector.ready;
        const position = await withStore(async (db) => {
          const { positions } = await appendToStream(db, uniqueStreamId('status'), 0, sampleEvents(4));
          return positions[positions.length - 1]!;
        });
        const leading = await consumerInHealth((c) => c?.leader === projector!.identity && c.checkpoint.position >= position);
        expect(leading).toMatchObject({ name: NAME, kind: 'projection', state: 'running', leader: projector.identity, lag_events: 0, lag_seconds: 0 });
        expect(leading!.checkpoint.position).toBe(position);

        const metrics = (await http.get('/metrics', undefined, { token: null })).text;
        const labels = `consumer="${NAME}",kind="projection"`;
        expect(metrics).toContain(`palimpsest_projection_checkpoint_position{${labels}} ${position}`);
        expect(metrics).toContain(`palimpsest_projection_lag_events{${labels}} 0`);
        expect(metrics).toContain(`palimpsest_projection_state{${labels},state="running"} 1`);
        expect(metrics).toContain(`palimpsest_projection_leader{${labels},leader="${projector.identity}"} 1`);
        expect((await cliStatus()).consumers.find((c) => c.name === NAME)).toMatchObject({ state: 'running', leader: projector.identity });

        projector.kill('SIGKILL');
        await projector.exited;
        projector = undefined;
        const stale = sampleEvents(3).map((e) => ({ ...e, recordedAt: new Date(Date.now() - 5_000).toISOString() }));
        await withStore((db) => appendToStream(db, uniqueStreamId('status'), 0, stale));
        const stopped = await consumerInHealth((c) => c?.state === 'stopped' && c.lag_events === 3);
        expect(stopped).toMatchObject({ state: 'stopped', leader: null, lag_events: 3, checkpoint: { position } });
        expect(stopped!.lag_seconds).toBeGreaterThan(THRESHOLD_S);
        const degraded = await health();
        // The gateway's own projections can lag too on a shared server: readAll waits out any database's open transaction.
        const lagging = expect.arrayContaining([NAME]);
        expect(degraded).toMatchObject({ status: 200, body: { status: 'degraded', info: { projections: { degraded: true, lagging } } } });
        expect(await cliStatus()).toMatchObject({ status: 'degraded', lagging });
        expect((await http.get('/metrics', undefined, { token: null })).text).toContain(`palimpsest_projection_state{${labels},state="stopped"} 1`);
      } finally {
        projector?.kill('SIGKILL');
        await projector?.exited;
      }
    });
  }
});
