import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeGraphStates } from '@palimpsest/application/code-graph/project-states';
import { TreeSitterCodeGraph } from '@palimpsest/structure/graph/code-graph-engine';
import { openWorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { envNumber, f2, summarize, table } from './stats';

/**
 * The code graph on a generated TypeScript project of BENCH_CODE_GRAPH_FILES files (2,000): each module
 * exports two functions, one calling the previous module's and one calling a module further back, so
 * dependents chain across the tree. Measured in one run:
 *   - cold index (walk, hash, parse every file: the declared layer) beside `tsc --noEmit` on the same tree,
 *     and the resolved layer's first query (the language service building its program);
 *   - an incremental update after a one-line edit: the next `latest` walk, re-hash and re-index (p50);
 *   - graph_query dependents of a function, both layers (p50).
 *
 *   npm run build && node dist/bench/code-graph.js
 *
 * Env: BENCH_CODE_GRAPH_FILES (2000), BENCH_CODE_GRAPH_ROUNDS (30).
 */

const FILES = Math.round(envNumber('BENCH_CODE_GRAPH_FILES', 2000));
const ROUNDS = Math.round(envNumber('BENCH_CODE_GRAPH_ROUNDS', 30));
const TSC = require.resolve('typescript/bin/tsc');

function moduleText(i: number, salt = 0): string {
  const lines = [`// module ${i} (${salt})`];
  if (i > 0) lines.push(`import { step${i - 1} } from './m${i - 1}';`);
  if (i > 10) lines.push(`import { jump${Math.floor(i / 2)} } from './m${Math.floor(i / 2)}';`);
  lines.push('', `export function step${i}(n: number): number {`, `  return ${i > 0 ? `step${i - 1}(n) + 1` : 'n'};`, '}', '');
  lines.push(`export function jump${i}(n: number): number {`, `  return ${i > 10 ? `jump${Math.floor(i / 2)}(n) * 2` : 'n'};`, '}', '');
  return lines.join('\n');
}

function generate(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  for (let i = 0; i < FILES; i++) writeFileSync(join(dir, 'src', `m${i}.ts`), moduleText(i));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', types: [] }, include: ['src'] }));
}

function time<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const value = fn();
  return [value, performance.now() - t];
}

async function timeAsync<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const value = await fn();
  return [value, performance.now() - t];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-code-graph-'));
  try {
    generate(dir);
    const [tsc, tscMs] = time(() => spawnSync(process.execPath, [TSC, '--noEmit', '-p', dir], { encoding: 'utf8' }));
    if (tsc.status !== 0) throw new Error(`tsc --noEmit failed: ${tsc.stdout}${tsc.stderr}`);
    const root = openWorkspaceRoot(dir);
    const states = new CodeGraphStates(new TreeSitterCodeGraph());
    const [view, coldMs] = await timeAsync(async () => states.view(root, await states.latest(root)));
    const target = `function:src/m${Math.floor(FILES / 2)}.ts#step${Math.floor(FILES / 2)}`;
    const [, firstResolvedMs] = await timeAsync(() => view.step([target], 'incoming', ['declared', 'resolved']));

    const updates: number[] = [];
    const queries: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const i = 1 + ((r * 7919) % (FILES - 1));
      const path = join(dir, 'src', `m${i}.ts`);
      writeFileSync(path, readFileSync(path, 'utf8').replace(/^\/\/ module .*$/m, `// module ${i} (${r + 1})`));
      const [next, updateMs] = await timeAsync(async () => states.view(root, await states.latest(root)));
      updates.push(updateMs);
      const fn = `function:src/m${i}.ts#step${i}`;
      const [, queryMs] = await timeAsync(() => next.step([fn], 'incoming', ['declared', 'resolved']));
      queries.push(queryMs);
    }
    root.close();
    const u = summarize(updates);
    const q = summarize(queries);
    table(`Code graph, ${FILES} TypeScript files (${ROUNDS} rounds)`, ['measure', 'ms'], [
      ['tsc --noEmit (baseline, same tree)', f2(tscMs)],
      ['cold index: walk, hash, declared layer', f2(coldMs)],
      ['first resolved query (language service program)', f2(firstResolvedMs)],
      ['incremental update after a one-line edit, p50', f2(u.p50)],
      ['incremental update, p99', f2(u.p99)],
      ['graph_query dependents, both layers, p50', f2(q.p50)],
      ['graph_query dependents, p99', f2(q.p99)],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
