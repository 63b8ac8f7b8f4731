import { catchUpFully } from '@palimpsest/projections/async/test-support/catch-up-fully';
import { ASYNC_PROJECTIONS } from '@palimpsest/projections/async/registry';
import { openDb } from '@palimpsest/store/open-db';
import { readStoreConfig } from '@palimpsest/store/store-config';
import { useGateway } from '../../support/http-server';

// PostgreSQL only: the test process catches the read models up beside the running gateway, on the same database.
describe('min_position reads over real HTTP while the projection catches up beside the gateway (postgres)', () => {
  // The gateway's own projector is off: this test is the one that catches up, while the read waits.
  const gw = useGateway('read,write', { PALIMPSEST_PROJECTOR: 'off' });

  it('a min_position read returns only once the projection has caught up, and /metrics exports the activity', async () => {
    const created = await gw.http.post('/v1/targets', { filename: 'quay.md', content: 'Bollards along the quay.\n' });
    const edit = await gw.http.post(`/v1/targets/${created.body.target_file_id}/edits`, {
      intent: 'More bollards', expected_target_version: 0, edits: [{ match: 'Bollards', replace: 'Iron bollards' }],
    });
    expect(edit.body).toMatchObject({ status: 'accepted', log_sequence: expect.any(Number) });
    let settled = false;
    const read = gw.http.get('/v1/search', { query: 'iron bollards', min_position: edit.body.log_sequence, max_wait_ms: 5000 })
      .finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(settled).toBe(false); // still waiting: nothing has caught the index up
    const db = await openDb({}, readStoreConfig(gw.store.env, process.cwd()));
    try {
      for (const projection of ASYNC_PROJECTIONS) await catchUpFully(db, projection);
    } finally {
      await db.close();
    }
    const answer = await read;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total: 1, hits: [{ filename: 'quay.md', version: 1 }], projection: { min_position_reached: true } });
    expect(answer.body.projection.waited_ms).toBeGreaterThanOrEqual(350);
    const activity = await gw.http.get('/v1/activity', { target_file_id: created.body.target_file_id, window_minutes: 60 });
    expect(activity.body).toMatchObject({ status: 'ok', attempts: 1, accepted: 1, retries: 0, projection: { caught_up: true } });
    const metrics = await gw.http.get('/metrics', undefined, { token: null });
    expect(metrics.text).toMatch(/^palimpsest_activity_attempts\{status="accepted",failure_reason="none"\} 1$/m);
    expect(metrics.text).toMatch(/^palimpsest_activity_attempts_by_source\{source="model_response"\} 1$/m);
    expect(metrics.text).toMatch(/^palimpsest_activity_acceptance_ratio 1$/m);
  });
});
