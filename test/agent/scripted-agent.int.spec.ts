import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { inadmissibleActions } from '@palimpsest/application/test-support/next-action-admission';
import { SCRIPT, inProcessTransport, runScript, type Answer } from '../../bench/scripted-agent.script';

describe(`a scripted agent following only next_actions, through dispatch on ${describeBackend}`, () => {
  let h: AppHarness;
  const answers: Answer[] = [];
  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());

  const transport = () =>
    inProcessTransport(async (operation, args) => {
      const answer = await h.call(operation, args);
      answers.push(answer);
      return answer;
    });

  it('lands all 50 edits with the intended text at no more than 1.1 calls per edit', async () => {
    const run = await runScript(transport(), 'follow_next_actions');
    expect(run.problems).toEqual([]);
    expect(run.edits).toBe(SCRIPT.length);
    expect(SCRIPT.length).toBe(50);
    // The mix: 45 land as first sent; 2 ambiguous matches, 2 typos and 1 stale guard need one follow-up each.
    expect(run.byKind).toEqual({
      first_time: { edits: 45, calls: 45 },
      ambiguous: { edits: 2, calls: 4 },
      typo: { edits: 2, calls: 4 },
      stale: { edits: 1, calls: 2 },
    });
    expect(run.callsPerEdit).toBeLessThanOrEqual(1.1);
  });

  it('the agent that re-reads before every retry needs more calls for the same edits', async () => {
    const run = await runScript(transport(), 'naive_reread');
    expect(run.problems).toEqual([]);
    expect(run.calls).toBe(45 + 5 * 3);
  });

  it('every next action offered on the way passes admission for its operation', () => {
    const rejected = answers.filter((a) => a.status === 'rejected');
    expect(rejected.length).toBe(10);
    expect(inadmissibleActions(rejected)).toEqual([]);
  });
});
