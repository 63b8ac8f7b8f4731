import { appContext } from '@palimpsest/composition/app-context.builder';
import { CountingDb } from '@palimpsest/store/test-support/counting-db';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import type { AppContext } from '../app-context';
import { dispatch } from '../dispatch/dispatch';

/** What an undo and a rebased submit send to the store beside a plain submit: one read more (the undo's reads the attempt and what came after it together), no transaction. */
describe(`undo and rebase cost on ${describeBackend}`, () => {
  let testDb: TestDb;
  let counted: CountingDb;
  let ctx: AppContext;
  let id: string;

  beforeAll(async () => {
    testDb = await createTestDb();
    counted = new CountingDb(testDb.db);
    ctx = appContext(counted);
    const created = (await dispatch(ctx, 'palimpsest_initialize_target', { filename: 'cost.txt', content: 'a0\nb0\nc0\nd0\n' })) as Record<string, unknown>;
    id = String(created.target_file_id);
  });
  afterAll(async () => {
    await ctx.wakes.close();
    await testDb.dispose();
  });

  const text = async () => (await dispatch(ctx, 'palimpsest_get_target', { target_file_id: id })) as { current_content: string; version: number };
  const spanEdit = async (from: string, to: string, version: number, rebase: boolean) => {
    const { current_content: content } = await text();
    const start = content.indexOf(from);
    const params = { target_file_id: id, intent: 'cost', expected_target_version: version, rebase, operations: [{ op: 'span' as const, start, end: start + from.length, expected_text: from, replace: to }] };
    counted.reset();
    const answer = (await dispatch(ctx, 'palimpsest_submit_operations', params)) as Record<string, unknown>;
    await ctx.wakes.flush();
    return { answer, cost: { statements: counted.statements, transactions: counted.transactions, log: [...counted.log] } };
  };

  it('reads once more for a rebased submit and for an undo than for a plain submit, and opens no transaction', async () => {
    const first = await spanEdit('a0', 'a1', (await text()).version, false);
    expect(first.answer).toMatchObject({ status: 'accepted' });
    const plain = await spanEdit('b0', 'b1', (await text()).version, false);
    expect(plain.answer).toMatchObject({ status: 'accepted' });
    const stale = (await text()).version - 2;
    const rebased = await spanEdit('c0', 'c1', stale, true);
    expect(rebased.answer).toMatchObject({ status: 'accepted' });

    counted.reset();
    const undo = (await dispatch(ctx, 'palimpsest_undo_attempt', { target_file_id: id, attempt_id: String(first.answer.attempt_id) })) as Record<string, unknown>;
    await ctx.wakes.flush();
    const undoCost = { statements: counted.statements, transactions: counted.transactions, log: [...counted.log] };
    expect(undo).toMatchObject({ status: 'accepted', undone_attempt_id: first.answer.attempt_id });
    expect((await text()).current_content).toBe('a0\nb1\nc1\nd0\n');

    // A plain submit: its one-statement commit, then its wake-up. The others read once before that.
    const shape = (c: { statements: number; transactions: number; log: string[] }) => ({ statements: c.statements, transactions: c.transactions, log: c.log.map((s) => s.slice(0, 11)) });
    expect(shape(plain.cost)).toEqual({ statements: 2, transactions: 0, log: ['WITH input ', 'SELECT set_'] });
    expect(shape(rebased.cost)).toEqual({ statements: 3, transactions: 0, log: ['SELECT a.at', 'WITH input ', 'SELECT set_'] });
    expect(shape(undoCost)).toEqual({ statements: 3, transactions: 0, log: ['SELECT a.at', 'WITH input ', 'SELECT set_'] });
  });
});
