import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CountingDb } from '@palimpsest/store/test-support/counting-db';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '../../dispatch/dispatch';

/**
 * What one edit_file of a bound, unchanged file sends to the store: at most 5 statements in one
 * transaction, and one durable commit (its journal's start commits with the accepted change).
 */
describe(`edit_file's cost on ${describeBackend}`, () => {
  let testDb: TestDb;
  let dir: string;
  let root: WorkspaceRoot;
  let counted: CountingDb;
  let ctx: AppContext;

  beforeAll(async () => {
    testDb = await createTestDb();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-edit-cost-'));
    root = openWorkspaceRoot(dir);
    counted = new CountingDb(testDb.db);
    ctx = appContext(counted, { workspace: root });
  });
  afterAll(async () => {
    await ctx.wakes.close();
    root.close();
    rmSync(dir, { recursive: true, force: true });
    await testDb.dispose();
  });

  const edit = async (i: number) => {
    const answer = (await dispatch(ctx, 'edit_file', { path: 'f.txt', oldString: `@@${i}@@`, newString: `@@${i + 1}@@` })) as Record<string, unknown>;
    await ctx.wakes.flush(); // the wake-up is part of the call's cost
    return answer;
  };

  it('costs at most 5 statements and one durable commit once the file is bound', async () => {
    writeFileSync(join(dir, 'f.txt'), 'alpha\nmarker @@0@@ here\nomega\n');
    expect(await edit(0)).toMatchObject({ status: 'ok' }); // binds the file
    for (let i = 1; i <= 3; i++) {
      counted.reset();
      expect(await edit(i)).toMatchObject({ status: 'ok', replacements: 1 });
      const cost = { statements: counted.statements, transactions: counted.transactions, commits: counted.commits };
      // On failure the statement log says what the call sent.
      expect(cost.statements <= 5 && cost.commits === 1 ? cost : { ...cost, log: counted.log }).toEqual(cost);
      expect(cost.statements).toBeLessThanOrEqual(5);
      expect(cost.transactions).toBe(1);
      expect(cost.commits).toBe(1);
    }
  });
});
