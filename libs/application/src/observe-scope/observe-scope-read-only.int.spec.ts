import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { READ_ONLY } from '@palimpsest/core/policy/owner-policy';
import { readStream } from '@palimpsest/store/read-stream';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch, type DispatchOptions } from '../dispatch/dispatch';

const fixture = (name: string) => readFileSync(join(__dirname, '..', '..', '..', 'structure', 'src', 'test-support', 'fixtures', name), 'utf8');

/** Seed 001's read-only authority: semantic reads only. Discovery and paging record nothing; selections would. */
describe(`palimpsest_observe_scope in the read-only profile on ${describeBackend}`, () => {
  let testDb: TestDb;
  let ctx: AppContext;
  let id: string;
  const observe = (args: Record<string, unknown>, opts: DispatchOptions = {}) => dispatch(ctx, 'palimpsest_observe_scope', { target_file_id: id, ...args }, opts) as Promise<Record<string, any>>;
  const events = async () => (await readStream(testDb.db, `target-${id}`)).length;

  beforeAll(async () => {
    testDb = await createTestDb();
    ctx = appContext(testDb.db, { workspace: null });
    id = ((await dispatch(ctx, 'palimpsest_initialize_target', { filename: 'models.py', content: fixture('models.py') })) as Record<string, any>).target_file_id;
  });
  afterAll(() => testDb.dispose());

  for (const [label, opts] of [['read-only profile', { readOnly: true }], ['read_only policy', { policy: READ_ONLY }]] as const) {
    it(`${label}: discovery and paging answer, exact and bundle selections are refused before matching, nothing is recorded`, async () => {
      const observed = await observe({ symbol_name: 'Point', max_chars: 30 });
      expect(observed).toMatchObject({ status: 'observed', next_offset: 30 });
      const before = await events();
      const found = await observe({ query: 'point.meta', kind: 'class' }, opts);
      expect(found).toMatchObject({ status: 'candidates', observation_id: null, total_candidates: 2 });
      expect(found.candidates.map((c: any) => [c.parent, c.name])).toEqual([['Point', 'Meta'], ['Point.Meta', 'Options']]);
      expect(await observe({ observation_id: observed.observation_id, offset: 30, max_chars: 10 }, opts)).toMatchObject({ status: 'scope_page', offset: 30, text: [...fixture('models.py')].slice(observed.scope_start + 30, observed.scope_start + 40).join('') });
      for (const args of [{ symbol_name: 'Point' }, { symbol_name: 'nothing' }, { symbol_name: 'Point', kind: 'class' }, { selections: [{ symbol_name: 'Color' }, { symbol_name: 'fetch' }] }]) {
        expect(await observe(args, opts)).toMatchObject({ status: 'invalid_argument', code: 'operation_not_permitted', answer: 'FORBIDDEN', observation_id: null });
      }
      // argument errors keep their own answer
      expect(await observe({ symbol_name: ' ' }, opts)).toMatchObject({ status: 'invalid_argument', code: 'blank_selector' });
      expect(await events()).toBe(before);
    });
  }

  it('a stale page in a read-only session offers discovery by the scope’s name, which that session serves', async () => {
    const stale = ((await dispatch(ctx, 'palimpsest_initialize_target', { filename: 'models.py', content: fixture('models.py') })) as Record<string, any>).target_file_id;
    const seen = (await dispatch(ctx, 'palimpsest_observe_scope', { target_file_id: stale, symbol_name: 'Point' })) as Record<string, any>;
    await dispatch(ctx, 'palimpsest_submit_replacement', { target_file_id: stale, intent: 'x', replacement: `${fixture('models.py')}\n`, expected_target_version: 0 });
    const page = (await dispatch(ctx, 'palimpsest_observe_scope', { target_file_id: stale, observation_id: seen.observation_id }, { readOnly: true })) as Record<string, any>;
    expect(page.code).toBe('STALE_OBSERVATION_VERSION');
    expect(page.next_actions).toEqual([{ operation: 'palimpsest_observe_scope', reason: expect.any(String), params: { target_file_id: stale, query: 'Point' } }]);
    const read = await dispatch(ctx, 'palimpsest_observe_scope', page.next_actions[0].params, { readOnly: true });
    expect(read).toMatchObject({ status: 'candidates' });
  });
});
