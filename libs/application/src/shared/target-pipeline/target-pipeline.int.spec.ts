import { plainSubmission } from '@palimpsest/core/target/target.commands';
import { decide } from '@palimpsest/core/target/target.decider';
import { PROTOCOL } from '@palimpsest/core/transaction/transaction.types';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { CountingDb } from '@palimpsest/store/test-support/counting-db';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { appContext } from '@palimpsest/composition/app-context.builder';
import type { AppContext } from '../../app-context';
import { createTarget } from '../../initialize-target/create-target';
import { acceptedChange, runTargetCommand, type AcceptedChange, type Step } from './target-pipeline';

/** The pipeline's own logic: which path a command takes, and how often a change whose target moved under its effect is decided again. */
describe(`the target command pipeline on ${describeBackend}`, () => {
  let testDb: TestDb;
  let counted: CountingDb;
  let ctx: AppContext;
  let targetId: string;

  beforeAll(async () => {
    testDb = await createTestDb();
    counted = new CountingDb(testDb.db);
    ctx = appContext(counted, { workspace: null });
    const created = await createTarget(ctx, { filename: 'a.txt', content: 'alpha\n' });
    if (created.kind !== 'created') throw new Error('the target was not created');
    targetId = created.target.target_id;
  });
  afterAll(async () => {
    await ctx.wakes.close();
    await testDb.dispose();
  });

  /** An accepted whole replacement decided on the locked row (nothing of it recorded). */
  const replacement = (row: TargetRow): AcceptedChange => {
    const command = plainSubmission({
      now: ctx.clock.now(), attempt_id: ctx.ids.next(), target_id: row.target_id, protocol_version: PROTOCOL.tx3,
      proposal: { intent: 'replace', replacement: 'beta\n' }, expected_target_version: row.version, lookups: { keyed: null, parent: null },
    });
    const change = acceptedChange(decide(command, row), row, String(command.attempt_id), command.now);
    if (!change) throw new Error('the replacement was not accepted');
    return change;
  };

  it('answers from the optimistic step without a transaction or a lock', async () => {
    counted.reset();
    const answer = await runTargetCommand<string>(ctx, {
      targetId,
      optimistic: async () => ({ kind: 'answer', answer: 'fast' }),
      locked: async () => {
        throw new Error('the locked step ran');
      },
    });
    expect(answer).toBe('fast');
    expect({ statements: counted.statements, transactions: counted.transactions }).toEqual({ statements: 0, transactions: 0 });
  });

  it('takes the lock when the optimistic guard refused, decides on the locked row, and says so once', async () => {
    const told: Step<number>[] = [];
    counted.reset();
    const answer = await runTargetCommand<number>(ctx, {
      targetId,
      optimistic: async () => 'refused',
      afterRefusedGuard: (step) => told.push(step),
      locked: async (row) => ({ kind: 'answer', answer: row ? row.version : -1 }),
    });
    expect(answer).toBe(0);
    expect(told).toEqual([{ kind: 'answer', answer: 0 }]);
    expect(counted.transactions).toBe(1);
  });

  it('hands the locked step no row for a target that does not exist', async () => {
    const answer = await runTargetCommand<string>(ctx, { targetId: ctx.ids.next(), locked: async (row) => ({ kind: 'answer', answer: row === null ? 'none' : 'row' }) });
    expect(answer).toBe('none');
  });

  it('decides again from the start when the target moved under the effect, and answers the move after the last round', async () => {
    let decisions = 0;
    const effects: number[] = [];
    const answer = await runTargetCommand<string>(ctx, {
      targetId,
      locked: async (row) => {
        decisions++;
        return { kind: 'effect', change: replacement(row!) };
      },
      effect: async (change) => {
        effects.push(change.on.version);
        return 'moved';
      },
      rounds: { max: 3, moved: (change) => `moved at ${change.on.version}` },
    });
    expect(answer).toBe('moved at 0');
    expect({ decisions, effects }).toEqual({ decisions: 3, effects: [0, 0, 0] });
  });

  it('answers what the effect answers once the target holds still', async () => {
    let rounds = 0;
    const answer = await runTargetCommand<string>(ctx, {
      targetId,
      locked: async (row) => ({ kind: 'effect', change: replacement(row!) }),
      effect: async (change) => (++rounds < 2 ? 'moved' : `published ${change.after.content.trim()}`),
      rounds: { max: 3, moved: () => 'moved' },
    });
    expect({ answer, rounds }).toEqual({ answer: 'published beta', rounds: 2 });
  });
});
