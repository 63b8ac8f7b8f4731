import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import type { Db, Sql, Tx } from '@palimpsest/store/db';
import { withBenchWorkspace } from './bench-workspace';
import { envNumber, nowMs, summarize } from './stats';

/**
 * One edit_file end to end, in process (no transport), counted: the SQL statements it sends (outside and
 * inside transactions), the transactions it commits, its durable commits (the transactions and the
 * writes autocommitted outside one: each a WAL flush), and its wall time, on a 1 KB file edited N times.
 * Counts do not depend on the machine's load; times do. What a call repeats shows in the statement log.
 *
 *   npm run build && node dist/bench/file-edit-profile.js      (PGlite; DATABASE_URL=… for PostgreSQL)
 *
 * Env: BENCH_PROFILE_ITERATIONS (default 50), BENCH_PROFILE_LOG=1 prints the statements of one call.
 */

interface Counts {
  statements: number;
  transactions: number;
  commits: number;
  log: string[];
}

function counting(db: Db, counts: Counts): Db {
  const timed = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    const started = nowMs();
    try {
      return await run();
    } finally {
      counts.log.push(`${(nowMs() - started).toFixed(1).padStart(6)} ms  ${label.replace(/\s+/g, ' ').slice(0, 100)}`);
    }
  };
  const note = <T>(text: string, run: () => Promise<T>) => {
    counts.statements++;
    return timed(text, run);
  };
  // Outside a transaction, a statement that is not a SELECT commits a write of its own.
  const autocommit = (text: string) => {
    if (!/^\s*SELECT\b/i.test(text)) counts.commits++;
  };
  const wrapTx = (tx: Tx): Tx => ({ query: (text, params) => note(text, () => tx.query(text, params)), exec: (script) => tx.exec(script) }) as Tx;
  return {
    kind: db.kind,
    query: ((text: string, params?: unknown[]) => (autocommit(text), note(text, () => db.query(text, params)))) as Sql['query'],
    exec: (script) => db.exec(script),
    listen: (channel, fn, gap) => db.listen(channel, fn, gap),
    close: () => db.close(),
    session: () => db.session(),
    transaction: (fn) => {
      counts.transactions++;
      counts.commits++;
      return timed('(the whole transaction, BEGIN to COMMIT)', () => db.transaction((tx) => fn(wrapTx(tx))));
    },
  };
}

async function main(): Promise<void> {
  const iterations = Math.round(envNumber('BENCH_PROFILE_ITERATIONS', 50));
  await withBenchWorkspace('palimpsest-edit-profile', async ({ db, dir, root }) => {
    const counts: Counts = { statements: 0, transactions: 0, commits: 0, log: [] };
    const ctx = appContext(counting(db, counts), { workspace: root });
    const lines = Array.from({ length: 18 }, (_, i) => (i === 9 ? 'marker @@0@@ here' : `line ${i} of the benchmark text, some words to fill it`));
    writeFileSync(join(dir, 'f.txt'), `${lines.join('\n')}\n`);
    const edit = async (i: number) => {
      const r = (await dispatch(ctx, 'edit_file', { path: 'f.txt', oldString: `@@${i}@@`, newString: `@@${i + 1}@@` })) as Record<string, unknown>;
      if (r.status !== 'ok') throw new Error(`edit_file: ${JSON.stringify(r).slice(0, 400)}`);
    };
    await edit(0); // binds the file: not what a steady call costs
    const times: number[] = [];
    let last = { statements: 0, transactions: 0, commits: 0 };
    for (let i = 1; i <= iterations; i++) {
      Object.assign(counts, { statements: 0, transactions: 0, commits: 0, log: [] });
      const started = nowMs();
      await edit(i);
      times.push(nowMs() - started);
      last = { statements: counts.statements, transactions: counts.transactions, commits: counts.commits };
    }
    if (process.env.BENCH_PROFILE_LOG === '1') console.log(counts.log.join('\n'));
    const s = summarize(times);
    console.log(`edit_file in process on ${db.kind}, 1 KB, ${iterations} calls: ${last.statements} SQL statements and ${last.transactions} transactions and ${last.commits} durable commits per call; p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms`);
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
