import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { grepWorkspace } from '@palimpsest/workspace/workspace-grep';
import { GREP_WORKER_SOURCE } from '@palimpsest/workspace/workspace-grep.worker';
import { openWorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { envNumber, f2, nowMs, percentile, table } from './stats';

/**
 * grep over MCP stdio (`palimpsest mcp --profile files`, PGlite, the tool call a host makes, JSON-RPC
 * round trip included) beside ripgrep spawned on the same generated tree with the same pattern, each
 * run a full scan (the pattern matches fewer than 200 lines, so neither stops early). Also prints the
 * same search in this process without the transport (grepWorkspace) with the CPU time it takes (all
 * threads of this process: on a machine shared with other jobs it says more than the wall time), and
 * what starting a grep worker thread costs, the reason grep keeps a small idle pool.
 *
 *   npm run build && node dist/bench/file-grep.js       (FILE_GREP_FILES=5000 FILE_GREP_RUNS=15)
 */

const REPO_ROOT = resolve(__dirname, '..', '..');
const CLI = join(REPO_ROOT, 'apps/cli/bin/palimpsest.js');
const RG = process.env.RG_BIN ?? '/usr/bin/rg';
interface GrepAnswer {
  status: string;
  matches: unknown[];
  truncated: boolean;
}

const PATTERN = 'function\\s+target_\\d+7\\(';

/** `files` source files of ~2 KB in directories of 100, a .gitignore'd build directory and node_modules beside them. */
function generateTree(dir: string, files: number): void {
  writeFileSync(join(dir, '.gitignore'), 'build/\n');
  for (const skipped of ['build', 'node_modules/pkg']) {
    mkdirSync(join(dir, skipped), { recursive: true });
    writeFileSync(join(dir, skipped, 'index.ts'), 'function target_17() {}\n');
  }
  for (let i = 0; i < files; i++) {
    const sub = join(dir, 'src', `m${String(Math.floor(i / 100)).padStart(3, '0')}`);
    if (i % 100 === 0) mkdirSync(sub, { recursive: true });
    const lines = [`// module ${i}`, `import { helper } from './helper_${i % 7}';`];
    for (let f = 0; f < 12; f++) lines.push(`export function fn_${i}_${f}(value: number): number {`, `  return helper(value * ${f}) + ${i};`, '}', '');
    if (i % 50 === 0) lines.push(`function target_${i + 7}() { return ${i}; }`);
    writeFileSync(join(sub, `file_${i}.ts`), `${lines.join('\n')}\n`);
  }
}

async function workerStartMs(samples: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t = nowMs();
    const w = new Worker(GREP_WORKER_SOURCE, { eval: true });
    await new Promise<void>((done) => {
      w.once('message', () => done());
      w.postMessage({ pattern: 'x', flags: '', literals: [], remaining: 1, maxLineChars: 10, buffer: new SharedArrayBuffer(0), files: [] });
    });
    out.push(nowMs() - t);
    await w.terminate();
  }
  return out;
}

async function main(): Promise<void> {
  const files = envNumber('FILE_GREP_FILES', 5000);
  const runs = envNumber('FILE_GREP_RUNS', 15);
  const tmp = mkdtempSync(join(tmpdir(), 'palimpsest-bench-grep-'));
  const tree = join(tmp, 'tree');
  mkdirSync(tree);
  generateTree(tree, files);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--profile', 'files'],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(tmp, 'data'), PALIMPSEST_WORKSPACE_ROOT: tree, PALIMPSEST_GREP_TIMEOUT_MS: '30000' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'bench-file-grep', version: '1.0.0' });
  try {
    await client.connect(transport);
    await client.listTools();
    const ours: number[] = [];
    const theirs: number[] = [];
    const inProcess: number[] = [];
    const inProcessCpu: number[] = [];
    const root = openWorkspaceRoot(tree);
    let ourCount = -1;
    let rgCount = -1;
    for (let i = 0; i <= runs; i++) {
      let t = nowMs();
      const answer = (await client.callTool({ name: 'grep', arguments: { pattern: PATTERN } })).structuredContent as GrepAnswer | undefined;
      const ourMs = nowMs() - t;
      if (answer?.status !== 'ok' || answer.truncated) throw new Error(`grep: ${JSON.stringify(answer).slice(0, 300)}`);
      ourCount = answer.matches.length;
      t = nowMs();
      const rg = spawnSync(RG, ['--line-number', '--no-heading', '--with-filename', '--color', 'never', '--hidden', '--no-require-git', '--glob', '!.git', '--glob', '!node_modules', PATTERN, '.'], { cwd: tree, encoding: 'utf8' });
      const rgMs = nowMs() - t;
      if (rg.status !== 0) throw new Error(`rg exited ${rg.status}: ${rg.stderr}`);
      rgCount = rg.stdout.trimEnd().split('\n').length;
      t = nowMs();
      const cpu = process.cpuUsage();
      const direct = await grepWorkspace(root, { pattern: PATTERN, caseInsensitive: false, maxResults: 200, timeoutMs: 30_000 });
      const directMs = nowMs() - t;
      const directCpu = process.cpuUsage(cpu);
      if (direct.kind !== 'done' || direct.matches.length !== ourCount) throw new Error(`in-process grep: ${JSON.stringify(direct).slice(0, 300)}`);
      if (i === 0) continue; // warm-up: page cache, pooled worker, SDK validators
      ours.push(ourMs);
      theirs.push(rgMs);
      inProcess.push(directMs);
      inProcessCpu.push((directCpu.user + directCpu.system) / 1000);
    }
    if (ourCount !== rgCount) throw new Error(`different answers: grep ${ourCount} matches, rg ${rgCount}`);
    ours.sort((a, b) => a - b);
    theirs.sort((a, b) => a - b);
    inProcess.sort((a, b) => a - b);
    inProcessCpu.sort((a, b) => a - b);
    root.close();
    const starts = (await workerStartMs(10)).sort((a, b) => a - b);
    console.log(`palimpsest bench file-grep — ${files} files (${runs} runs after one warm-up), pattern /${PATTERN}/, ${ourCount} matches each; node ${process.version}; ${spawnSync(RG, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]}`);
    table('grep over MCP stdio vs ripgrep (ms)', ['tool', 'p50', 'p90', 'min'], [
      ['grep (palimpsest mcp, PGlite)', f2(percentile(ours, 50)), f2(percentile(ours, 90)), f2(ours[0]!)],
      ['grepWorkspace in this process (no transport)', f2(percentile(inProcess, 50)), f2(percentile(inProcess, 90)), f2(inProcess[0]!)],
      ['  its CPU time (user + system, all threads)', f2(percentile(inProcessCpu, 50)), f2(percentile(inProcessCpu, 90)), f2(inProcessCpu[0]!)],
      ['rg (spawned per search)', f2(percentile(theirs, 50)), f2(percentile(theirs, 90)), f2(theirs[0]!)],
    ]);
    console.log(`ratio grep / rg at p50: ${f2(percentile(ours, 50) / percentile(theirs, 50))}×`);
    console.log(`grep worker start (new Worker → first answer), p50 ${f2(percentile(starts, 50))} ms, max ${f2(starts[starts.length - 1]!)} ms`);
  } finally {
    await client.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
