import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatch } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

const AGENTS = 16;
const EDITS = 8;
const line = (agent: number, edit: number, value: string) => `agent ${agent} edit ${edit}: ${value}\n`;
const text = (value: (agent: number, edit: number) => string) =>
  Array.from({ length: AGENTS }, (_, a) => Array.from({ length: EDITS }, (_, e) => line(a, e, value(a, e))).join('')).join('');

describe(`sixteen agents editing one file at once on ${describeBackend}`, () => {
  let harness: WorkspaceHarness;
  beforeAll(async () => {
    harness = await createWorkspaceHarness('palimpsest-ftools-concurrent-');
  });
  afterAll(() => harness.dispose());

  it('lands every edit of every agent, in turn, none lost and none torn, without a single workspace_busy', async () => {
    const { ctx, dir } = harness;
    writeFileSync(join(dir, 'shared.txt'), text(() => 'old'));
    const answers: Record<string, any>[] = [];
    // No retries: each agent sends each edit once and goes on to the next when it is answered.
    await Promise.all(
      Array.from({ length: AGENTS }, async (_, agent) => {
        for (let edit = 0; edit < EDITS; edit++) {
          const oldString = line(agent, edit, 'old');
          const r = (await dispatch(ctx, 'edit_file', { path: 'shared.txt', oldString, newString: line(agent, edit, 'new') })) as Record<string, any>;
          answers.push(r);
        }
      }),
    );
    expect(answers.filter((r) => r.status !== 'ok')).toEqual([]);
    expect(readFileSync(join(dir, 'shared.txt'), 'utf8')).toBe(text(() => 'new'));
    const ids = new Set(answers.map((r) => r.target_file_id));
    expect(ids.size).toBe(1); // bound once, whoever came first
    const [id] = ids;
    expect(answers.map((r) => r.version).sort((a, b) => a - b)).toEqual(Array.from({ length: AGENTS * EDITS }, (_, i) => i + 1));
    const replay = (await dispatch(ctx, 'palimpsest_replay', { target_file_id: id })) as Record<string, any>;
    expect(replay).toMatchObject({ status: 'success', materialized_state_matches: true, accepted_transactions_replayed: AGENTS * EDITS });
    expect(readdirSync(dir).filter((n) => n.startsWith('.palimpsest-'))).toEqual([]);
  }, 300_000);
});
