import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { strictObservationFromEnv } from '@palimpsest/composition/palimpsest-config';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { expectPublishedResult } from '../file-tools/test-support/published-result';

const SOURCE = 'export function alpha(x: number) {\n  return x + 1;\n}\n';
const span = (needle: string, replace: string) => ({ op: 'span', start: SOURCE.indexOf(needle), end: SOURCE.indexOf(needle) + needle.length, expected_text: needle, replace });

describe(`strict observation mode (PALIMPSEST_STRICT_OBSERVATION_MODE=1) on ${describeBackend}`, () => {
  let testDb: TestDb;
  let strict: AppContext;
  let lax: AppContext;
  const call = async (ctx: AppContext, name: string, args: unknown) => {
    const answer = (await dispatch(ctx, name, args)) as Record<string, any>;
    expectPublishedResult(name, answer);
    return answer;
  };
  const newTarget = async () => (await call(strict, 'palimpsest_initialize_target', { filename: 'mod.ts', content: SOURCE, content_type: 'text/typescript' })).target_file_id as string;
  const unobserved = (id: string): [string, Record<string, unknown>][] => [
    ['palimpsest_submit_edits', { target_file_id: id, intent: 'bump', edits: [{ match: 'x + 1', replace: 'x + 2' }], expected_target_version: 0 }],
    ['palimpsest_submit_operations', { target_file_id: id, intent: 'bump', operations: [span('x + 1', 'x + 2')], expected_target_version: 0 }],
    ['palimpsest_submit_replacement', { target_file_id: id, intent: 'bump', replacement: SOURCE.replace('x + 1', 'x + 2'), expected_target_version: 0 }],
  ];

  beforeAll(async () => {
    testDb = await createTestDb();
    strict = appContext(testDb.db, { workspace: null, strictObservation: true });
    lax = appContext(testDb.db, { workspace: null, strictObservation: false });
  });
  afterAll(() => testDb.dispose());

  it('refuses each unobserved write tool as a recorded rejection, OBSERVATION_REQUIRED, pointing at palimpsest_observe_scope', async () => {
    const id = await newTarget();
    for (const [tool, args] of unobserved(id)) {
      const r = await call(strict, tool, args);
      expect(r).toMatchObject({ status: 'rejected', failure_reason: 'context_invalid', current_version: 0, diagnostic: { code: 'OBSERVATION_REQUIRED', mode: 'strict_observation' } });
      expect(r.next_actions[0]).toEqual({ operation: 'palimpsest_observe_scope', reason: expect.any(String), params: { target_file_id: id } });
      const log = await call(strict, 'palimpsest_get_attempt_log', { target_file_id: id, status: 'rejected' });
      expect(log.entries.map((e: any) => e.attempt_id)).toContain(r.attempt_id);
    }
    const log = await call(strict, 'palimpsest_get_attempt_log', { target_file_id: id, detail: true });
    expect(log.entries.map((e: any) => [e.status, e.diagnostic?.code])).toEqual(Array(3).fill(['rejected', 'OBSERVATION_REQUIRED']));
    expect((await call(strict, 'palimpsest_get_target', { target_file_id: id })).version).toBe(0);
  });

  it('still accepts an observed submission, and the same unobserved write once the mode is off', async () => {
    const id = await newTarget();
    const obs = await call(strict, 'palimpsest_observe_scope', { target_file_id: id, symbol_name: 'alpha', kind: 'function' });
    const t = await call(strict, 'palimpsest_get_target', { target_file_id: id });
    const observed = await call(strict, 'palimpsest_submit_observed_operations', {
      target_file_id: id, observation_id: obs.observation_id, intent: 'bump', operations: [span('x + 1', 'x + 2')], expected_target_version: t.version, expected_current_hash: t.current_hash,
    });
    expect(observed).toMatchObject({ status: 'accepted', version: 1 });
    expect(await call(lax, 'palimpsest_submit_edits', { target_file_id: id, intent: 'again', edits: [{ match: 'x + 2', replace: 'x + 3' }], expected_target_version: 1 })).toMatchObject({ status: 'accepted', version: 2 });
  });

  it('reads the mode once from the environment: 1 on, unset, empty or 0 off, anything else refused', () => {
    expect(strictObservationFromEnv({ PALIMPSEST_STRICT_OBSERVATION_MODE: '1' })).toBe(true);
    for (const off of [undefined, '', '0']) expect(strictObservationFromEnv({ PALIMPSEST_STRICT_OBSERVATION_MODE: off })).toBe(false);
    expect(() => strictObservationFromEnv({ PALIMPSEST_STRICT_OBSERVATION_MODE: 'yes' })).toThrow(/must be 1 \(on\) or 0 \(off\)/);
  });
});
