import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import type { AppContext } from '@palimpsest/application/app-context';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { createBenchDatabase, type BenchDatabase } from './bench-database';
import { benchStore } from './deployed-env';
import { envNumber, f2, nowMs, summarize, table } from './stats';

/**
 * What an undo and a rebased submit cost beside a plain submit of the same size, on one target of
 * UNDO_REBASE_LINES lines (one line changed each time), measured in the same run:
 *   plain    palimpsest_submit_operations, one span, guarded by the current version;
 *   rebased  the same span written against a version UNDO_REBASE_BEHIND acceptances old, rebase: true
 *            (the others changed other lines meanwhile, so it is carried through their effects);
 *   undo     palimpsest_undo_attempt of an edit UNDO_REBASE_BEHIND acceptances old (same size).
 * Aim: rebased and undo ≤ 1.5× plain at p50.
 *
 *   npm run build && node dist/bench/undo-rebase.js                 (PGlite in memory)
 *   DATABASE_URL=postgres://… node dist/bench/undo-rebase.js         (a fresh PostgreSQL database)
 *
 * Env: UNDO_REBASE_ROUNDS (default 200), UNDO_REBASE_LINES (1,000), UNDO_REBASE_BEHIND (4).
 */

const ROUNDS = envNumber('UNDO_REBASE_ROUNDS', 200);
const LINES = envNumber('UNDO_REBASE_LINES', 1_000);
const BEHIND = envNumber('UNDO_REBASE_BEHIND', 4);

type Answer = Record<string, any>;
const call = async (ctx: AppContext, name: string, args: Record<string, unknown>): Promise<Answer> => ({ ...(await dispatchRequest(ctx, name, args)) });

function spanOfLine(text: string, n: number): { start: number; end: number } {
  let start = 0;
  for (let i = 0; i < n; i++) start = text.indexOf('\n', start) + 1;
  return { start, end: text.indexOf('\n', start) };
}

/** One span edit of line n, against the text and version given. */
function lineEdit(id: string, text: string, version: number, n: number, tag: string, rebase: boolean) {
  const { start, end } = spanOfLine(text, n);
  return { target_file_id: id, intent: tag, expected_target_version: version, rebase, operations: [{ op: 'span', start, end, expected_text: text.slice(start, end), replace: `line ${n}: ${tag}` }] };
}

async function timed(fn: () => Promise<Answer>, expected: string): Promise<number> {
  const start = nowMs();
  const answer = await fn();
  const ms = nowMs() - start;
  if (answer.status !== expected) throw new Error(`expected ${expected}, got ${JSON.stringify(answer).slice(0, 400)}`);
  return ms;
}

async function run(db: Db): Promise<void> {
  const ctx = appContext(db);
  const lines = Array.from({ length: LINES }, (_, i) => `line ${i}: the original text of this line, of an ordinary length`);
  const created = await call(ctx, 'palimpsest_initialize_target', { filename: 'bench.txt', content: `${lines.join('\n')}\n` });
  const id = created.target_file_id as string;
  const read = () => call(ctx, 'palimpsest_get_target', { target_file_id: id });
  const samples = { plain: [] as number[], rebased: [] as number[], undo: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    const line = (k: number) => (r * (BEHIND + 3) + k) % LINES;
    // plain: at the current version.
    let t = await read();
    samples.plain.push(await timed(() => call(ctx, 'palimpsest_submit_operations', lineEdit(id, t.current_content, t.version, line(0), `plain ${r}`, false)), 'accepted'));
    // rebased: written at version v, BEHIND other lines changed since.
    t = await read();
    const stale = t;
    const undoable = await call(ctx, 'palimpsest_submit_operations', lineEdit(id, t.current_content, t.version, line(1), `undoable ${r}`, false));
    for (let k = 0; k < BEHIND; k++) {
      t = await read();
      await call(ctx, 'palimpsest_submit_operations', lineEdit(id, t.current_content, t.version, line(2 + k), `other ${r}.${k}`, false));
    }
    samples.rebased.push(await timed(() => call(ctx, 'palimpsest_submit_operations', lineEdit(id, stale.current_content, stale.version, line(BEHIND + 2), `rebased ${r}`, true)), 'accepted'));
    samples.undo.push(await timed(() => call(ctx, 'palimpsest_undo_attempt', { target_file_id: id, attempt_id: undoable.attempt_id }), 'accepted'));
  }
  const plain = summarize(samples.plain);
  const rows = (['plain', 'rebased', 'undo'] as const).map((k) => {
    const s = summarize(samples[k]);
    return [k, s.samples, f2(s.p50), f2(s.p99), f2(s.mean), `${f2(s.p50 / plain.p50)}×`];
  });
  table(`undo and rebase vs a plain submit (${LINES} lines, ${BEHIND} acceptances behind, ${ROUNDS} rounds, history grows to ${ROUNDS * (BEHIND + 3)} versions)`,
    ['submit', 'n', 'p50 ms', 'p99 ms', 'mean ms', 'p50 / plain'], rows);
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  let database: BenchDatabase | null = null;
  let db: Db;
  if (adminUrl) {
    database = await createBenchDatabase(adminUrl);
    db = await openDb({ databaseUrl: database.url }, benchStore());
  } else {
    db = await openDb({ memory: true }, benchStore());
  }
  console.log(`backend: ${adminUrl ? 'PostgreSQL' : 'PGlite (memory)'}`);
  try {
    await migrate(db);
    await run(db);
  } finally {
    await db.close();
    await database?.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
