import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '@palimpsest/application/dispatch/dispatch';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { createBenchDatabase, type BenchDatabase } from './bench-database';
import { SCRIPT, inProcessTransport, runScript, type Answer, type ScriptRun } from './scripted-agent.script';
import { benchStore } from './deployed-env';

/**
 * Calls per edit for the scripted agent's 50 edits (bench/scripted-agent.script.ts), through
 * dispatch(): following next_actions as they are, against the baseline from the same run, an agent
 * that re-reads the target before every retry and rebuilds the request itself.
 *
 *   npm run build && node dist/bench/scripted-agent.js                  # embedded PGlite, in memory
 *   DATABASE_URL=postgres://… node dist/bench/scripted-agent.js          # a fresh database on that server
 */

function describeRun(name: string, run: ScriptRun, ms: number): string {
  const kinds = Object.entries(run.byKind)
    .map(([kind, k]) => `${kind} ${k.edits} edits/${k.calls} calls`)
    .join(', ');
  return `  ${name.padEnd(22)} ${run.calls} calls for ${run.edits}/${SCRIPT.length} edits = ${run.callsPerEdit.toFixed(2)} calls/edit, ${ms.toFixed(0)} ms (${kinds})`;
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  let bench: BenchDatabase | undefined;
  if (adminUrl) bench = await createBenchDatabase(adminUrl);
  const db = await openDb(bench ? { databaseUrl: bench.url } : { memory: true }, benchStore());
  try {
    await migrate(db);
    const ctx = appContext(db);
    const transport = inProcessTransport((operation, args) => dispatch(ctx, operation, args) as Promise<Answer>);
    console.log(`scripted agent: ${SCRIPT.length} edits on ${bench ? 'PostgreSQL' : 'PGlite (memory)'}`);
    const runs: [string, ScriptRun][] = [];
    for (const strategy of ['naive_reread', 'follow_next_actions'] as const) {
      const started = performance.now();
      const run = await runScript(transport, strategy);
      const ms = performance.now() - started;
      if (run.problems.length) throw new Error(`${strategy}: ${run.problems.join('\n')}`);
      runs.push([strategy, run]);
      console.log(describeRun(strategy, run, ms));
    }
    const [naive, follow] = [runs[0]![1], runs[1]![1]];
    console.log(`  follow / naive = ${(follow.callsPerEdit / naive.callsPerEdit).toFixed(3)} (aim: follow ≤ 1.10 calls/edit)`);
  } finally {
    await db.close();
    await bench?.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
