import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@palimpsest/store/db';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { appContext } from '@palimpsest/composition/app-context.builder';
import type { AppContext } from '../app-context';
import { dispatchRequest } from '../dispatch/dispatch';

/**
 * Sixteen agents, each editing its own region of one 1,000-line text, each edit written against the
 * version the agent just read — stale by the time it lands, since the others write meanwhile. With
 * rebase: true (tx/2 spans, tx/1 matches) and through edit_file, no update is lost, every region's
 * edits land exactly once and at least 95 % are accepted without a retry; the same run without rebase
 * shows the stale refusals it avoids. On PostgreSQL each agent is its own pool of two connections (a
 * publication's lease holds one of its own while the other writes).
 */

const onPostgres = describeBackend === 'postgres';
const AGENTS = 16;
const LINES = 1_000;
const EDITS_PER_AGENT = 4;
const REGION = Math.floor(LINES / AGENTS);

type Answer = Record<string, any>;
const call = (ctx: AppContext, name: string, args: unknown) => dispatchRequest(ctx, name, args) as Promise<Answer>;
const original = Array.from({ length: LINES }, (_, i) => `line ${i}: the original text of this line`);
const lineOf = (agent: number, edit: number) => agent * REGION + edit * 3;
const edited = (agent: number, edit: number) => `line ${lineOf(agent, edit)}: rewritten by agent ${agent}, edit ${edit}`;

/** Code-point offsets of line n in `text` (ASCII here, so UTF-16 offsets are code points). */
function spanOfLine(text: string, n: number): { start: number; end: number } {
  let start = 0;
  for (let i = 0; i < n; i++) start = text.indexOf('\n', start) + 1;
  return { start, end: text.indexOf('\n', start) };
}

function expectedText(): string {
  const lines = [...original];
  for (let a = 0; a < AGENTS; a++) for (let e = 0; e < EDITS_PER_AGENT; e++) lines[lineOf(a, e)] = edited(a, e);
  return `${lines.join('\n')}\n`;
}

describe(`${AGENTS} agents editing disjoint regions of one file with stale versions on ${describeBackend}`, () => {
  let testDb: TestDb;
  let dir: string;
  let root: WorkspaceRoot;
  let agents: AppContext[];
  const ownDbs: Db[] = [];

  beforeAll(async () => {
    testDb = await createTestDb();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-rebase-race-'));
    root = openWorkspaceRoot(dir);
    if (onPostgres) {
      const { rows } = await testDb.db.query<{ name: string }>('SELECT current_database() AS name');
      const url = new URL(process.env.DATABASE_URL as string);
      url.pathname = `/${rows[0]!.name}`;
      for (let i = 0; i < AGENTS; i++) ownDbs.push(await openPostgresDb({ connectionString: url.toString(), poolMax: 2 }));
      agents = ownDbs.map((db) => appContext(db, { workspace: root }));
    } else {
      const shared = appContext(testDb.db, { workspace: root });
      agents = Array.from({ length: AGENTS }, () => shared);
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(agents.map((ctx) => ctx.wakes.close()));
    await Promise.all(ownDbs.map((db) => db.close()));
    root.close();
    rmSync(dir, { recursive: true, force: true });
    await testDb.dispose();
  });

  async function newTarget(): Promise<string> {
    const created = await call(agents[0]!, 'palimpsest_initialize_target', { filename: 'big.txt', content: `${original.join('\n')}\n` });
    return created.target_file_id;
  }

  /** Every agent: read, then submit its next edit against the version read (no retry). */
  async function race(id: string, form: 'tx2' | 'tx1', rebase: boolean): Promise<Answer[]> {
    const runAgent = async (ctx: AppContext, agent: number) => {
      const answers: Answer[] = [];
      for (let e = 0; e < EDITS_PER_AGENT; e++) {
        const read = await call(ctx, 'palimpsest_get_target', { target_file_id: id });
        const text = read.current_content as string;
        const { start, end } = spanOfLine(text, lineOf(agent, e));
        const common = { target_file_id: id, intent: `agent ${agent} edit ${e}`, expected_target_version: read.version, rebase };
        answers.push(form === 'tx2'
          ? await call(ctx, 'palimpsest_submit_operations', { ...common, operations: [{ op: 'span', start, end, expected_text: text.slice(start, end), replace: edited(agent, e) }] })
          : await call(ctx, 'palimpsest_submit_edits', { ...common, edits: [{ match: text.slice(start, end), replace: edited(agent, e) }] }));
      }
      return answers;
    };
    return (await Promise.all(agents.map((ctx, a) => runAgent(ctx, a)))).flat();
  }

  async function expectEveryRegionLandedOnce(id: string, answers: Answer[]) {
    const accepted = answers.filter((a) => a.status === 'accepted');
    // ≥ 95 % accepted at the first try; with disjoint regions, in fact all of them.
    expect(accepted.length / answers.length).toBeGreaterThanOrEqual(0.95);
    expect(accepted.length).toBe(AGENTS * EDITS_PER_AGENT);
    const final = await call(agents[0]!, 'palimpsest_get_target', { target_file_id: id });
    expect(final.version).toBe(accepted.length);
    // No lost update, and each edit exactly once: the text is the original with every edit in its place.
    expect(final.current_content).toBe(expectedText());
    expect(await call(agents[0]!, 'palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success' });
    return accepted;
  }

  it('tx/2 spans with rebase: true: all land, most of them rebased past the others\' writes', async () => {
    const id = await newTarget();
    const answers = await race(id, 'tx2', true);
    await expectEveryRegionLandedOnce(id, answers);
    const { rows } = await testDb.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND event_type = 'ProposalAccepted' AND schema_version = 3`, [`target-${id}`],
    );
    expect(Number(rows[0]!.n)).toBeGreaterThan(0); // the agents really were stale
  }, 120_000);

  it('tx/1 matches with rebase: true: all land', async () => {
    const id = await newTarget();
    await expectEveryRegionLandedOnce(id, await race(id, 'tx1', true));
  }, 120_000);

  it('without rebase, the same run is refused as stale wherever another agent wrote first', async () => {
    const id = await newTarget();
    const answers = await race(id, 'tx2', false);
    const refused = answers.filter((a) => a.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r.failure_reason).toBe('target_version_mismatch');
    const final = await call(agents[0]!, 'palimpsest_get_target', { target_file_id: id });
    expect(final.version).toBe(answers.length - refused.length);
    expect(final.current_content).not.toBe(expectedText()); // the refused edits are missing until retried
  }, 120_000);

  it('edit_file (tx/1 on the file as it is): all land on disk, each once', async () => {
    writeFileSync(join(dir, 'big.txt'), `${original.join('\n')}\n`);
    const runAgent = async (ctx: AppContext, agent: number) => {
      const answers: Answer[] = [];
      for (let e = 0; e < EDITS_PER_AGENT; e++) {
        answers.push(await call(ctx, 'edit_file', { path: 'big.txt', oldString: original[lineOf(agent, e)], newString: edited(agent, e) }));
      }
      return answers;
    };
    const answers = (await Promise.all(agents.map((ctx, a) => runAgent(ctx, a)))).flat();
    const ok = answers.filter((a) => a.status === 'ok');
    expect(ok.length / answers.length).toBeGreaterThanOrEqual(0.95);
    expect(ok.length).toBe(AGENTS * EDITS_PER_AGENT);
    expect(readFileSync(join(dir, 'big.txt'), 'utf8')).toBe(expectedText());
  }, 120_000);
});
