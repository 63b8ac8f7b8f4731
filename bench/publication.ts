import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AppContext } from '@palimpsest/application/app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '@palimpsest/application/dispatch/dispatch';
import { createHash } from 'node:crypto';
import { lockTargetRow } from '@palimpsest/projections/content/target-row.queries';
import { filesUnderLease } from '@palimpsest/projections/publications/publication.queries';
import { openDestination } from '@palimpsest/workspace/workspace-destination';
import { durableWrite } from '@palimpsest/workspace/workspace-file-writer';
import { readWorkspaceFile } from '@palimpsest/workspace/workspace-file-reader';
import { withBenchWorkspace } from './bench-workspace';
import { envNumber, f2, nowMs, summarize, table } from './stats';

/**
 * Issue 14's publication benchmark: palimpsest_save with sync_workspace of a 1 KB and a 1 MB target,
 * in process, beside two baselines measured in the same run, the three interleaved in each round:
 * - the durable write alone of the same bytes (libs/workspace durableWrite: temp, fsync, rename, fsync dir);
 * - one database commit alone: the same save without sync_workspace (its CheckpointSaved commit).
 * The aim is publication ≤ 1.5 × (durable write + one commit). A publication commits twice
 * (PublicationStarted before the file is touched, then the outcome with the checkpoint) and hashes the
 * file twice (the drift checks), which is where the time above the baseline goes.
 *
 *   npm run build && node dist/bench/publication.js                      # PGlite
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/publication.js
 *
 * 1 MB is 10^6 bytes: the admission limit of a replacement (1,000,000 code points).
 *
 * Env: BENCH_PUBLICATION_RUNS_1K (200), BENCH_PUBLICATION_RUNS_1M (40), BENCH_PUBLICATION_DIR (os.tmpdir()).
 */

const SIZES = [
  { label: '1 KB', bytes: 1024, runs: Math.round(envNumber('BENCH_PUBLICATION_RUNS_1K', 200)) },
  { label: '1 MB', bytes: 1_000_000, runs: Math.round(envNumber('BENCH_PUBLICATION_RUNS_1M', 40)) },
];
const WARMUP = 5;

/** A text of about `bytes` bytes, different for each `n`. */
const textOf = (bytes: number, n: number) => `run ${n}\n${'lorem ipsum dolor sit amet\n'.repeat(Math.ceil(bytes / 27))}`.slice(0, bytes - 1) + '\n';

type Call = (name: string, args: unknown) => Promise<Record<string, any>>;

interface Row {
  size: string;
  publication: number[];
  durable: number[];
  commit: number[];
  /** Steps of the publication beyond the baseline, each timed alone on the same file in the same round. */
  steps: Record<Step, number[]>;
}

const STEPS = ['lease', 'open-journal check', 'drift check (read + hash)', 'target row lock'] as const;
type Step = (typeof STEPS)[number];

async function timeSteps(ctx: AppContext, file: string, id: string): Promise<Record<Step, number>> {
  const root = ctx.workspace!;
  let t = nowMs();
  const opened = openDestination(root, file, { createParents: false });
  if (opened.kind !== 'opened') throw new Error(`open ${file}: ${opened.kind}`);
  const held = await ctx.leases.tryAcquire([opened.dest.dir]);
  if (!held) throw new Error('lease busy');
  await held.release();
  opened.dest.close();
  const lease = nowMs() - t;
  t = nowMs();
  await filesUnderLease(ctx.db, [id]);
  const journals = nowMs() - t;
  t = nowMs();
  const read = readWorkspaceFile(root, file);
  if (read.kind !== 'read') throw new Error(`read ${file}: ${read.kind}`);
  createHash('sha256').update(read.bytes).digest('hex');
  const drift = nowMs() - t;
  t = nowMs();
  await ctx.db.transaction((tx) => lockTargetRow(tx, id, ctx.contents));
  return { lease, 'open-journal check': journals, 'drift check (read + hash)': drift, 'target row lock': nowMs() - t };
}

async function measure(ctx: AppContext, dir: string, size: (typeof SIZES)[number]): Promise<Row> {
  const call: Call = (name, args) => dispatch(ctx, name, args) as Promise<Record<string, any>>;
  const file = `bench-${size.bytes}.md`;
  writeFileSync(join(dir, file), textOf(size.bytes, 0));
  const id = (await call('palimpsest_initialize_target', { filename: file, from_workspace: true })).target_file_id as string;
  let version = 0;
  const edit = async (n: number) => {
    const text = textOf(size.bytes, n);
    const r = await call('palimpsest_submit_replacement', { target_file_id: id, intent: 'bench', expected_target_version: version, replacement: text });
    if (r.status !== 'accepted') throw new Error(`replacement: ${JSON.stringify(r).slice(0, 300)}`);
    version = r.version;
    return Buffer.from(text);
  };
  const row: Row = { size: size.label, publication: [], durable: [], commit: [], steps: { lease: [], 'open-journal check': [], 'drift check (read + hash)': [], 'target row lock': [] } };
  for (let n = 1; n <= size.runs + WARMUP; n++) {
    const bytes = await edit(2 * n);
    let t = nowMs();
    const saved = await call('palimpsest_save', { target_file_id: id, sync_workspace: true });
    const publication = nowMs() - t;
    if (saved.status !== 'saved' || saved.workspace_sync?.durability !== 'confirmed') throw new Error(`publication: ${JSON.stringify(saved).slice(0, 300)}`);

    t = nowMs();
    durableWrite(dir, `baseline-${size.bytes}.md`, bytes);
    const durable = nowMs() - t;

    await edit(2 * n + 1);
    t = nowMs();
    const plain = await call('palimpsest_save', { target_file_id: id, sync_workspace: false });
    const commit = nowMs() - t;
    if (plain.status !== 'saved') throw new Error(`save: ${JSON.stringify(plain).slice(0, 300)}`);
    const steps = await timeSteps(ctx, file, id);

    if (n > WARMUP) {
      row.publication.push(publication);
      row.durable.push(durable);
      row.commit.push(commit);
      for (const s of STEPS) row.steps[s].push(steps[s]);
    }
  }
  return row;
}

function report(backend: string, rows: Row[]): void {
  const out: (string | number)[][] = [];
  for (const r of rows) {
    const [p, d, c] = [summarize(r.publication), summarize(r.durable), summarize(r.commit)];
    out.push([`${r.size} p50`, f2(p.p50), f2(d.p50), f2(c.p50), f2(d.p50 + c.p50), f2(p.p50 / (d.p50 + c.p50))]);
    out.push([`${r.size} p99`, f2(p.p99), f2(d.p99), f2(c.p99), f2(d.p99 + c.p99), f2(p.p99 / (d.p99 + c.p99))]);
  }
  const runs = rows.map((r) => `${r.size}: ${r.publication.length} runs`).join(', ');
  table(`Publication (palimpsest_save sync_workspace) on ${backend}, ms (${runs})`, ['size', 'publication', 'durable write', 'one commit', 'baseline', 'ratio'], out);
  const steps = STEPS.map((s) => [s, ...rows.flatMap((r) => [f2(summarize(r.steps[s]).p50), f2(summarize(r.steps[s]).p99)])]);
  table(`Steps a publication adds, each timed alone (p50 / p99, ms)`, ['step', ...rows.flatMap((r) => [`${r.size} p50`, `${r.size} p99`])], steps);
}

async function main(): Promise<void> {
  await withBenchWorkspace('palimpsest-bench-publication', async ({ db, backend, dir, root }) => {
    const ctx = appContext(db, { workspace: root });
    const rows: Row[] = [];
    for (const size of SIZES) rows.push(await measure(ctx, dir, size));
    report(backend, rows);
  }, process.env.BENCH_PUBLICATION_DIR || undefined);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
