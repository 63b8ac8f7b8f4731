import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { HISTORY_SNAPSHOT_EVERY } from '@palimpsest/core/history/text-as-of';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { createBenchDatabase } from './bench-database';
import { benchStore } from './deployed-env';
import { envNumber, f2, nowMs, summarize, table } from './stats';

/**
 * As-of reads of a large document at random versions of a long history (palimpsest_read_target with
 * as_of {version}: the whole text folded from the nearest kept copy and the effects since, its hash
 * checked, then a 4,000 code-point page of it), beside the same reads of the current version in the
 * same run, on the backend DATABASE_URL selects
 * (PostgreSQL when set, else the embedded store in a temporary directory).
 *
 *   npm run build && node dist/bench/history-reads.js
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/history-reads.js
 *
 * Env: HISTORY_BYTES (document size, default 1,000,000), HISTORY_VERSIONS (default 1,000), HISTORY_READS (default 200).
 */

const BYTES = envNumber('HISTORY_BYTES', 1_000_000);
const VERSIONS = envNumber('HISTORY_VERSIONS', 1000);
const READS = envNumber('HISTORY_READS', 200);

/** A deterministic generator, so every run reads the same versions. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  const database = adminUrl ? await createBenchDatabase(adminUrl) : null;
  const dataRoot = mkdtempSync(join(tmpdir(), 'palimpsest-bench-history-'));
  const db = await openDb(database ? { databaseUrl: database.url } : { dataDir: join(dataRoot, 'data') }, benchStore());
  const backend = database ? 'postgres' : 'pglite';
  try {
    await migrate(db);
    const ctx = appContext(db);
    const lines = Math.max(1, Math.floor(BYTES / 64));
    const text = Array.from({ length: lines }, (_, i) => `line ${String(i).padStart(8, '0')} ${'x'.repeat(49)}\n`).join('');
    const created = await dispatch(ctx, 'palimpsest_initialize_target', { filename: 'history.txt', content: text });
    const id = String(created.target_file_id);
    const random = lcg(7);
    const seedStart = nowMs();
    for (let v = 0; v < VERSIONS; v++) {
      const line = Math.floor(random() * lines);
      const start = line * 64 + 5;
      const r = await dispatch(ctx, 'palimpsest_submit_operations', {
        target_file_id: id, intent: `edit ${v}`, expected_target_version: v,
        operations: [{ op: 'span', start, end: start + 8, expected_text: (await currentSlice(ctx, id, start)), replace: String(v).padStart(8, '0') }],
      });
      if (r.status !== 'accepted') throw new Error(`edit ${v}: ${JSON.stringify(r).slice(0, 300)}`);
    }
    console.log(`${backend}: ${text.length} code points, ${VERSIONS} versions seeded in ${f2((nowMs() - seedStart) / 1000)} s (a copy every ${HISTORY_SNAPSHOT_EVERY} versions)`);
    const sample = async (args: () => { target_file_id: string; start: number; as_of?: { version: number } }) => {
      const ms: number[] = [];
      for (let i = 0; i < READS; i++) {
        const start = nowMs();
        const r = await dispatch(ctx, 'palimpsest_read_target', args());
        ms.push(nowMs() - start);
        if (r.status !== 'ok') throw new Error(JSON.stringify(r).slice(0, 300));
      }
      return summarize(ms);
    };
    const at = lcg(5);
    const offset = () => Math.floor(at() * (text.length - 4000));
    const current = await sample(() => ({ target_file_id: id, start: offset() }));
    const pick = lcg(11);
    const asOf = await sample(() => ({ target_file_id: id, start: offset(), as_of: { version: Math.floor(pick() * (VERSIONS + 1)) } }));
    table(`palimpsest_read_target (4,000 code points at a random offset) of a ${f2(text.length / 1e6)} M code-point text on ${backend}, ${READS} reads each, ms`, ['read', 'p50', 'p99', 'mean'], [
      ['current version', f2(current.p50), f2(current.p99), f2(current.mean)],
      [`as_of a random version of ${VERSIONS}`, f2(asOf.p50), f2(asOf.p99), f2(asOf.mean)],
    ]);
  } finally {
    await db.close();
    await database?.drop();
    rmSync(dataRoot, { recursive: true, force: true });
  }
}

/** The 8 code points a span edit replaces, read as a client would before editing. */
async function currentSlice(ctx: ReturnType<typeof appContext>, id: string, start: number): Promise<string> {
  const r = await dispatch(ctx, 'palimpsest_read_target', { target_file_id: id, start, length: 8 });
  if (r.status !== 'ok') throw new Error(JSON.stringify(r).slice(0, 300));
  return r.text;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
