import Ajv2020 from 'ajv/dist/2020';
import { catchUpFully } from '@palimpsest/projections/async/test-support/catch-up-fully';
import { activityProjection } from '@palimpsest/projections/async/activity/activity.projection';
import { searchProjection } from '@palimpsest/projections/async/search/search.projection';
import { ANSWER_SCHEMAS } from '@palimpsest/protocol/catalog/answer-schemas';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { expectPublishedResult } from '../file-tools/test-support/published-result';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
const validAnswer = (name: 'palimpsest_search_targets' | 'palimpsest_get_target_activity', answer: unknown) => {
  const validate = ajv.compile(ANSWER_SCHEMAS[name]);
  expect(validate(answer) ? [] : validate.errors).toEqual([]);
  expectPublishedResult(name, answer);
};

describe(`palimpsest_search_targets and palimpsest_get_target_activity (${describeBackend})`, () => {
  let h: AppHarness;
  let target: string;

  beforeAll(async () => {
    h = await createAppHarness();
    target = await h.target('Meeting notes about the harbour crane.\n', 'notes/harbour.md');
  });
  afterAll(() => h.dispose());

  it('a min_position read waits for the projection and answers only once catchUp has run', async () => {
    const write = await h.call('palimpsest_submit_edits', {
      target_file_id: target, intent: 'Name the crane', expected_target_version: 0, edits: [{ match: 'crane', replace: 'gantry crane' }],
    });
    expect(write).toMatchObject({ status: 'accepted', log_sequence: expect.any(Number) });
    let settled = false;
    const read = h.call('palimpsest_search_targets', { query: 'gantry', min_position: write.log_sequence, max_wait_ms: 5000 })
      .finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false); // still waiting: nothing has caught the index up
    await catchUpFully(h.testDb.db, searchProjection);
    const answer = await read;
    expect(answer.hits.map((x: { target_file_id: string }) => x.target_file_id)).toEqual([target]);
    expect(answer.projection).toMatchObject({
      name: 'search', caught_up: true, behind_by_events: 0, min_position: write.log_sequence, min_position_reached: true,
    });
    expect(answer.projection.waited_ms).toBeGreaterThanOrEqual(250);
    expect(answer.hits[0].snippet).toContain('[[gantry]]');
    validAnswer('palimpsest_search_targets', answer);
  });

  it('with nothing catching up it answers within max_wait_ms, saying how far behind it is', async () => {
    const write = await h.call('palimpsest_submit_edits', {
      target_file_id: target, intent: 'Rename', expected_target_version: 1, edits: [{ match: 'Meeting', replace: 'Briefing' }],
    });
    const started = performance.now();
    const answer = await h.call('palimpsest_search_targets', { query: 'briefing', min_position: write.log_sequence, max_wait_ms: 200 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(answer).toMatchObject({ status: 'ok', hits: [], projection: { caught_up: false, min_position_reached: false } });
    expect(answer.projection.behind_by_events).toBeGreaterThan(0);
    const activity = await h.call('palimpsest_get_target_activity', { min_position: write.log_sequence, max_wait_ms: 0 });
    expect(activity.projection).toMatchObject({ name: 'activity', checkpoint_position: 0, min_position_reached: false });
    expect(activity.projection.behind_by_events).toBe(await h.count('SELECT count(*) FROM events'));
  });

  it('reports activity over a window, per target and overall', async () => {
    const missed = await h.call('palimpsest_submit_edits', {
      target_file_id: target, intent: 'miss', expected_target_version: 2, edits: [{ match: 'absent', replace: 'x' }],
    });
    expect(missed.status).toBe('rejected');
    await h.call('palimpsest_submit_edits', {
      target_file_id: target, intent: 'retry', expected_target_version: 2, parent_attempt_id: missed.attempt_id, attempt: 2,
      edits: [{ match: 'notes', replace: 'minutes' }],
    });
    const other = await h.target('x\n');
    const answer = await h.call('palimpsest_get_target_activity', { target_file_id: target, window_minutes: 10 });
    expect(answer.attempts).toBe(0); // not caught up: nothing counted yet
    await catchUpFully(h.testDb.db, activityProjection);
    const mine = await h.call('palimpsest_get_target_activity', { target_file_id: target, window_minutes: 10 });
    expect(mine).toMatchObject({
      status: 'ok', target_file_id: target, attempts: 4, accepted: 3, rejected: 1, retries: 1,
      acceptance_rate: 0.75, retries_per_acceptance: 1 / 3,
      by_failure_reason: [{ failure_reason: missed.failure_reason, attempts: 1 }],
      by_source: [{ source: 'model_response', attempts: 4, accepted: 3, rejected: 1, retries: 1 }],
      window: { granularity: 'minute' }, projection: { caught_up: true, min_position: null, min_position_reached: null },
    });
    expect(mine.series.reduce((n: number, b: { attempts: number }) => n + b.attempts, 0)).toBe(4);
    validAnswer('palimpsest_get_target_activity', mine);
    const overall = await h.call('palimpsest_get_target_activity', { window_minutes: 24 * 60 });
    expect(overall).toMatchObject({ target_file_id: null, attempts: 4, window: { granularity: 'hour' } });
    const otherAnswer = await h.call('palimpsest_get_target_activity', { target_file_id: other });
    expect(otherAnswer).toMatchObject({ attempts: 0, acceptance_rate: null, retries_per_acceptance: null, series: [] });
    const past = await h.call('palimpsest_get_target_activity', { until: '2001-01-01T00:00:00Z' });
    expect(past).toMatchObject({ attempts: 0, window: { since: '2000-12-31T23:00:00.000Z', until: '2001-01-01T00:00:00.000Z' } });
  });

  it('refuses bad arguments with a documented code', async () => {
    expect(await h.call('palimpsest_get_target_activity', { until: 'yesterday' })).toMatchObject({ status: 'invalid_argument', code: 'invalid_until' });
    expect(await h.call('palimpsest_get_target_activity', { target_file_id: 'nope' })).toMatchObject({ status: 'invalid_argument', code: 'invalid_target_file_id' });
    expect(await h.call('palimpsest_get_target_activity', { target_file_id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ status: 'not_found' });
    expect(await h.call('palimpsest_search_targets', { query: 'x', limit: 51 })).toMatchObject({ status: 'invalid_argument' });
    expect(await h.call('palimpsest_search_targets', { query: 'x', max_wait_ms: 5001 })).toMatchObject({ status: 'invalid_argument' });
    expect(await h.call('palimpsest_search_targets', { query: '' })).toMatchObject({ status: 'invalid_argument' });
  });

  it('pages ranked hits with next_offset', async () => {
    for (let i = 0; i < 3; i += 1) await h.target(`${'pelican '.repeat(i + 1)}and a gull\n`, `birds-${i}.txt`);
    await catchUpFully(h.testDb.db, searchProjection);
    const first = await h.call('palimpsest_search_targets', { query: 'pelican', limit: 2 });
    expect(first).toMatchObject({ total: 3, next_offset: 2 });
    expect(first.hits[0].rank).toBeGreaterThanOrEqual(first.hits[1].rank);
    const second = await h.call('palimpsest_search_targets', { query: 'pelican', limit: 2, offset: first.next_offset });
    expect(second).toMatchObject({ total: 3, next_offset: null });
    expect(new Set([...first.hits, ...second.hits].map((x: { target_file_id: string }) => x.target_file_id)).size).toBe(3);
  });
});
