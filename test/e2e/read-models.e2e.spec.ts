import { expectPublishedResult } from '@palimpsest/application/file-tools/test-support/published-result';
import { isolatedStore, runCli } from '../support/cli-process';
import { useGateway } from '../support/http-server';
import { connectMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** A gateway or MCP server whose in-process projector is off: nothing catches up. */
const NO_PROJECTOR = { PALIMPSEST_PROJECTOR: 'off' };

describe(`the read-model tools over real MCP stdio on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  beforeAll(async () => {
    store = await isolatedStore();
    expect((await runCli(['migrate'], { env: store.env })).code).toBe(0);
  });
  afterAll(() => store.dispose());

  let target: string;
  let position: number;

  it('answers a min_position read bounded, with how far behind the index is, while nothing catches up', async () => {
    const writer = await connectMcp({ ...store.env, ...NO_PROJECTOR });
    try {
      const created = await writer.call('palimpsest_initialize_target', { filename: 'docs/lighthouse.md', content: 'The keeper trims the wick.\n' });
      target = created.result.target_file_id;
      const edit = await writer.call('palimpsest_submit_edits', {
        target_file_id: target, intent: 'Name the lamp', expected_target_version: 0, edits: [{ match: 'wick', replace: 'lamp wick' }],
      });
      expect(edit.result).toMatchObject({ status: 'accepted', log_sequence: expect.any(Number) });
      position = edit.result.log_sequence;
      const stale = await writer.call('palimpsest_search_targets', { query: 'keeper', min_position: position, max_wait_ms: 300 });
      expect(stale.isError).toBe(false);
      expect(stale.result).toMatchObject({ status: 'ok', hits: [], projection: { name: 'search', caught_up: false, min_position_reached: false } });
      expect(stale.result.projection.behind_by_events).toBeGreaterThan(0);
      expect(stale.result.projection.waited_ms).toBeGreaterThanOrEqual(250);
    } finally {
      await writer.close();
    }
  });

  it('answers once its own projector has caught up with the write (read-only profile)', async () => {
    const reader = await connectMcp(store.env, ['--profile', 'read-only']);
    try {
      const names = (await reader.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['palimpsest_search_targets', 'palimpsest_get_target_activity']));
      const found = await reader.call('palimpsest_search_targets', { query: 'lighthouse lamp', min_position: position });
      expect(found.result).toMatchObject({
        status: 'ok', total: 1, hits: [{ target_file_id: target, filename: 'docs/lighthouse.md', version: 1 }],
        projection: { caught_up: true, behind_by_events: 0, min_position_reached: true },
      });
      expect(found.result.hits[0].snippet).toContain('[[lamp]]');
      const activity = await reader.call('palimpsest_get_target_activity', { target_file_id: target, min_position: position });
      expect(activity.result).toMatchObject({ status: 'ok', attempts: 1, accepted: 1, acceptance_rate: 1, projection: { min_position_reached: true } });
      const bad = await reader.call('palimpsest_search_targets', { query: 'x', limit: 500 });
      expect(bad.isError).toBe(true);
      expectPublishedResult('palimpsest_search_targets', found.result);
      expectPublishedResult('palimpsest_search_targets', bad.result);
      expectPublishedResult('palimpsest_get_target_activity', activity.result);
    } finally {
      await reader.close();
    }
  });
});

describe(`the read-model routes over real HTTP on ${backend}`, () => {
  const gw = useGateway('read,write', NO_PROJECTOR);

  it('GET /v1/search with min_position answers bounded while nothing catches up', async () => {
    const created = await gw.http.post('/v1/targets', { filename: 'harbour.md', content: 'Tugboats and ferries.\n' });
    expect(created.status).toBe(201);
    expect(created.body.log_sequence).toEqual(expect.any(Number));
    const started = performance.now();
    const stale = await gw.http.get('/v1/search', { query: 'ferries', min_position: created.body.log_sequence, max_wait_ms: 200 });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ status: 'ok', hits: [], projection: { caught_up: false, min_position_reached: false } });
    expect(stale.body.projection.behind_by_events).toBeGreaterThan(0);
    const refused = await gw.http.get('/v1/activity', { until: 'soon' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 'invalid_argument', code: 'invalid_until' });
  });
});

describe(`the read-model routes over real HTTP with the gateway's projector on ${backend}`, () => {
  const gw = useGateway('read,write');

  it('a write, then a search and an activity read with its log_sequence: both include it', async () => {
    const created = await gw.http.post('/v1/targets', { filename: 'quay.md', content: 'Bollards and hawsers.\n' });
    expect(created.status).toBe(201);
    const min_position = created.body.log_sequence;
    const found = await gw.http.get('/v1/search', { query: 'hawsers', min_position });
    expect(found.body).toMatchObject({
      status: 'ok', total: 1, hits: [{ target_file_id: created.body.target_file_id, filename: 'quay.md' }],
      projection: { name: 'search', min_position_reached: true },
    });
    const activity = await gw.http.get('/v1/activity', { min_position });
    expect(activity.body).toMatchObject({ status: 'ok', projection: { name: 'activity', min_position_reached: true } });
  });
});
