import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectStdioTools, REPO_ROOT } from './mcp-stdio-client';
import { envNumber, nowMs, summarize } from './stats';

/**
 * edit_file over MCP stdio, ours beside @modelcontextprotocol/server-filesystem's, on the same kind of
 * file (1 KB and 1 MiB of text, one unique marker line edited per call), both driven by the SDK Client,
 * interleaved so both see the same load. Ours: `palimpsest mcp` with PALIMPSEST_WORKSPACE_ROOT (a guarded
 * tx/1 edit, recorded, published through the journal with fsync'd stage, backup, rename and directory
 * fsync). Theirs: edit_file {path, edits:[{oldText,newText}]} (read, replace, write to a temp file, rename).
 *
 *   npm run build && node dist/bench/file-edit.js           (PGlite; DATABASE_URL=… for PostgreSQL)
 *
 * Env: BENCH_EDIT_ITERATIONS_1KB (default 200), BENCH_EDIT_ITERATIONS_1MB (default 50), BENCH_EDIT_WARMUP (10).
 */

const CLI_BIN = join(REPO_ROOT, 'apps', 'cli', 'bin', 'palimpsest.js');
const FS_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

async function connect(label: string, args: string[], env: Record<string, string>) {
  const tools = await connectStdioTools(`file-edit ${label}`, args, env);
  return {
    call: async (name: string, a: Record<string, unknown>) => {
      const r = await tools.call(name, a);
      if (r.isError) throw new Error(`${label} ${name}: ${JSON.stringify(r).slice(0, 600)}\n${tools.stderrTail()}`);
      return r;
    },
    close: () => tools.close(),
  };
}

/** A text of about `bytes` bytes: numbered lines, one marker line in the middle. */
function textOf(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = i === Math.max(1, Math.floor(bytes / 110)) ? 'marker @@0@@ here' : `line ${i} of the benchmark text, some words to fill it`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  if (!existsSync(join(REPO_ROOT, 'dist', 'apps', 'cli', 'src', 'main.js'))) throw new Error('run npm run build first');
  const warmup = Math.round(envNumber('BENCH_EDIT_WARMUP', 10));
  const sizes = [
    { label: '1 KB', bytes: 1024, iterations: Math.round(envNumber('BENCH_EDIT_ITERATIONS_1KB', 200)) },
    { label: '1 MB', bytes: 1024 * 1024, iterations: Math.round(envNumber('BENCH_EDIT_ITERATIONS_1MB', 50)) },
  ];
  const tmp = mkdtempSync(join(tmpdir(), 'palimpsest-bench-edit-'));
  const oursDir = join(tmp, 'ours');
  const theirsDir = join(tmp, 'theirs');
  mkdirSync(oursDir);
  mkdirSync(theirsDir);
  const backend = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const env: Record<string, string> = { PALIMPSEST_WORKSPACE_ROOT: oursDir, ...(process.env.DATABASE_URL ? {} : { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(tmp, 'pglite') }) };
  const ours = await connect('palimpsest mcp', [CLI_BIN, 'mcp'], env);
  const theirs = await connect('server-filesystem', [FS_SERVER, theirsDir], {});
  const rows: string[] = [];
  try {
    for (const size of sizes) {
      const name = `file-${size.bytes}.txt`;
      const text = textOf(size.bytes);
      if (text.split('@@0@@').length !== 2) throw new Error('the marker must be unique');
      writeFileSync(join(oursDir, name), text);
      writeFileSync(join(theirsDir, name), text);
      let v = 0;
      let w = 0;
      const oursOnce = async () => {
        const r = await ours.call('edit_file', { path: name, oldString: `@@${v}@@`, newString: `@@${v + 1}@@` });
        if (r.structuredContent?.status !== 'ok') throw new Error(`ours: ${JSON.stringify(r.structuredContent).slice(0, 600)}`);
        v++;
      };
      const theirsOnce = async () => {
        await theirs.call('edit_file', { path: join(theirsDir, name), edits: [{ oldText: `@@${w}@@`, newText: `@@${w + 1}@@` }] });
        w++;
      };
      for (let i = 0; i < warmup; i++) {
        await oursOnce();
        await theirsOnce();
      }
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < size.iterations; i++) {
        const order = i % 2 === 0 ? [[oursOnce, a], [theirsOnce, b]] as const : [[theirsOnce, b], [oursOnce, a]] as const;
        for (const [fn, samples] of order) {
          const t0 = nowMs();
          await fn();
          samples.push(nowMs() - t0);
        }
      }
      if (!readFileSync(join(oursDir, name), 'utf8').includes(`@@${v}@@`) || !readFileSync(join(theirsDir, name), 'utf8').includes(`@@${w}@@`)) throw new Error('an edit did not reach the file');
      const s = summarize(a);
      const t = summarize(b);
      rows.push(`| ${size.label} | ${size.iterations} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${t.p50.toFixed(2)} | ${t.p99.toFixed(2)} | ${(s.p50 / t.p50).toFixed(2)}× | ${(s.p99 / t.p99).toFixed(2)}× |`);
    }
  } finally {
    await ours.close();
    await theirs.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`edit_file over MCP stdio: palimpsest (${backend}) vs @modelcontextprotocol/server-filesystem; node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'})`);
  console.log('| size | calls | ours p50 ms | ours p99 ms | filesystem p50 ms | filesystem p99 ms | p50 ratio | p99 ratio |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
