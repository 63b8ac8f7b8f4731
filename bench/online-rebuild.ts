import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { rebuildOnline } from '@palimpsest/projections/rebuild/online/online-rebuild';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { createBenchDatabase } from './bench-database';
import { envNumber } from './stats';
import { benchStore } from './deployed-env';

/**
 * Issue 17, item 4: the online rebuild of the inline models beside the stop-the-world rebuild of the same
 * log in the same run (the baseline), idle and while 16 clients keep submitting; how long the switch held
 * the tables, and how many requests failed (must be 0).
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/online-rebuild.js
 *   npm run build && node dist/bench/online-rebuild.js                                   # PGlite
 *
 * Env: BENCH_REBUILD_TARGETS (200), BENCH_REBUILD_EDITS (10 per target).
 */

type Answer = Record<string, any>;

async function seed(db: Db, targets: number, edits: number): Promise<void> {
  const ctx = appContext(db);
  await Promise.all(Array.from({ length: 8 }, async (_, w) => {
    for (let t = w; t < targets; t += 8) {
      const id = ((await dispatch(ctx, 'palimpsest_initialize_target', { filename: `t${t}.md`, content: `doc ${t}\ncounter 0\n` })) as Answer).target_file_id;
      for (let n = 0; n < edits; n++) {
        await dispatch(ctx, 'palimpsest_submit_edits', { target_file_id: id, intent: 'n', expected_target_version: n, edits: [{ match: `counter ${n}`, replace: `counter ${n + 1}` }] });
      }
    }
  }));
}

async function withWriters<T>(db: Db, run: () => Promise<T>): Promise<{ result: T; requests: number; failed: number }> {
  const ctx = appContext(db);
  let stop = false;
  let requests = 0;
  let failed = 0;
  const writer = async (i: number) => {
    const id = ((await dispatch(ctx, 'palimpsest_initialize_target', { filename: `w${i}.md`, content: 'counter 0\n' })) as Answer).target_file_id;
    for (let n = 0; !stop; n++) {
      requests++;
      const r = await dispatch(ctx, 'palimpsest_submit_edits', { target_file_id: id, intent: 'w', expected_target_version: n, edits: [{ match: `counter ${n}`, replace: `counter ${n + 1}` }] }).catch(() => null) as Answer | null;
      if (r?.status !== 'accepted') failed++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const writers = Array.from({ length: 16 }, (_, i) => writer(i));
  const result = await run().finally(() => (stop = true));
  await Promise.all(writers);
  return { result, requests, failed };
}

async function main(): Promise<void> {
  const targets = envNumber('BENCH_REBUILD_TARGETS', 200);
  const edits = envNumber('BENCH_REBUILD_EDITS', 10);
  const adminUrl = process.env.DATABASE_URL;
  const bench = adminUrl ? await createBenchDatabase(adminUrl) : null;
  const dir = bench ? null : mkdtempSync(join(tmpdir(), 'palimpsest-bench-rebuild-'));
  const db = await openDb(bench ? { databaseUrl: bench.url } : { dataDir: join(dir!, 'data') }, benchStore());
  try {
    await migrate(db);
    await seed(db, targets, edits);
    const events = Number((await db.query('SELECT count(*) AS n FROM events')).rows[0].n);
    let t = Date.now();
    const stopped = await rebuildProjections(db);
    const baselineMs = Date.now() - t;
    t = Date.now();
    const idle = (await rebuildOnline(db, { name: 'inline' })).rebuilt[0]!;
    const idleMs = Date.now() - t;
    const busy = await withWriters(db, () => rebuildOnline(db, { name: 'inline' }));
    const loaded = busy.result.rebuilt[0]!;
    const rate = (n: number, ms: number) => Math.round(n / (ms / 1000));
    console.log(`online rebuild of the inline models on ${db.kind}: ${targets} targets, ${events} events`);
    console.log(`  stop-the-world (baseline): ${baselineMs} ms, ${rate(events, baselineMs)} events/s, equal ${stopped.equal}`);
    console.log(`  online, idle:              ${idleMs} ms, ${rate(idle.events, idleMs)} events/s, switch held the tables ${idle.locked_ms} ms, equal ${idle.equal}`);
    console.log(`  online, 16 writers:        ${loaded.duration_ms} ms, ${loaded.events} events, tail under lock ${loaded.tail}, locked ${loaded.locked_ms} ms, lock retries ${loaded.lock_retries}, equal ${loaded.equal}`);
    console.log(`  writers' requests meanwhile: ${busy.requests}, failed ${busy.failed}`);
    console.log(`  ratio online idle / stop-the-world time: ${(idleMs / baselineMs).toFixed(2)}`);
  } finally {
    await db.close();
    await bench?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
