import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase, type BenchDatabase } from './bench-database';
import { asDeployed } from './deployed-env';
import { REPO_ROOT, type ToolResult } from './mcp-stdio-client';
import { postgresCpuSince, processCpuMs } from './process-cpu';
import { envNumber, nowMs, percentile } from './stats';

/**
 * run_command of `true` and of `node -e 0` over MCP stdio (`palimpsest mcp`, the SDK Client) beside
 * spawning the same argv directly from this process, interleaved in one run; then get_command_output
 * read in a loop with its cursor on a started node process writing 50 MB, beside reading the same
 * process's pipe directly.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:commands
 *
 * With DATABASE_URL a fresh PostgreSQL database is created there and dropped after, else PGlite in a
 * temporary directory. Env: BENCH_CMD_ITERATIONS (default 200), BENCH_CMD_WARMUP (default 20),
 * BENCH_CMD_OUTPUT_MB (default 50), BENCH_CMD_OUTPUT_ROUNDS (default 3; 0 skips the output measure),
 * BENCH_CMD_COMMANDS (the run_command lines, comma-separated, default `true,node -e 0`), BENCH_CMD_SERVER_NODE_ARGS (node
 * options for the server, e.g. --cpu-prof), BENCH_CMD_SPAWNER (0, 1 or both, default both: the server forks
 * commands itself, through its spawner process, or one server of each in turn; PALIMPSEST_COMMAND_SPAWNER).
 */

const CLI_BIN = join(REPO_ROOT, 'apps', 'cli', 'bin', 'palimpsest.js');
const MB = 1024 * 1024;
const WRITER = `const b = Buffer.alloc(${MB}, 120); let n = Number(process.argv[2]);
function w() { while (n > 0) { n--; if (!process.stdout.write(b)) return process.stdout.once('drain', w); } }
w();
`;

interface Server {
  pid: number | null;
  call(name: string, args: Record<string, unknown>): Promise<Record<string, any>>;
  close(): Promise<void>;
}

async function connect(env: Record<string, string>): Promise<Server> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...(process.env.BENCH_CMD_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), CLI_BIN, 'mcp'], cwd: REPO_ROOT, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const client = new Client({ name: 'bench-command-tools', version: '1.0.0' });
  await client.connect(transport).catch((e: Error) => {
    throw new Error(`palimpsest mcp: ${e.message}\n${stderr}`);
  });
  const names = (await client.listTools()).tools.map((t) => t.name);
  const toolName = (op: string) => names.find((n) => n === op || n.endsWith(`_${op}`)) ?? op;
  return {
    pid: transport.pid,
    async call(op, args) {
      const r = (await client.callTool({ name: toolName(op), arguments: args })) as ToolResult;
      const body = r.structuredContent ?? JSON.parse(r.content?.[0]?.text ?? '{}');
      if (r.isError || body.status !== 'ok') throw new Error(`${op}: ${JSON.stringify(body).slice(0, 500)}\n${stderr}`);
      return body;
    },
    close: () => client.close(),
  };
}

/** Spawns argv as the process manager does (own group, pipes), resolving once it closed, with the bytes it wrote. */
function spawnDirect(argv: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    child.stdout.on('data', (d: Buffer) => (bytes += d.length));
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => resolve(bytes));
  });
}

/** The server's CPU (ms) with its spawner's, when it runs one (the commands' own CPU is not counted either way). */
function serverCpuMs(pid: number | null): number {
  if (!pid) return NaN;
  let spawner = 0;
  try {
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean)) {
      if (readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('palimpsest-spawner-')) spawner += processCpuMs(Number(child)) || 0;
    }
  } catch {
    // no /proc: the server's own CPU is NaN too
  }
  return processCpuMs(pid) + spawner;
}

const fmt = (ms: number) => ms.toFixed(2);
const p = (xs: number[], q: number) => percentile([...xs].sort((a, b) => a - b), q);

async function measureRuns(server: Server, dir: string, command: string, iterations: number, warmup: number): Promise<void> {
  const argv = command.split(' ');
  const ours: number[] = [];
  const direct: number[] = [];
  const cpuBefore = serverCpuMs(server.pid);
  const pgCpu = postgresCpuSince();
  for (let i = 0; i < warmup + iterations; i++) {
    const order = i % 2 === 0 ? ['mcp', 'direct'] : ['direct', 'mcp'];
    for (const path of order) {
      const t0 = nowMs();
      if (path === 'mcp') {
        const r = await server.call('run_command', { command });
        if (r.exitCode !== 0) throw new Error(`${command}: exit ${r.exitCode}`);
      } else await spawnDirect(argv, dir);
      if (i >= warmup) (path === 'mcp' ? ours : direct).push(nowMs() - t0);
    }
  }
  const calls = warmup + iterations;
  const serverCpu = (serverCpuMs(server.pid) - cpuBefore) / calls;
  const pg = pgCpu() / calls;
  const overhead = ours.map((x, i) => x - direct[i]!);
  console.log(
    `run_command ${JSON.stringify(command)} × ${iterations}: MCP p50 ${fmt(p(ours, 50))} / p95 ${fmt(p(ours, 95))} ms; ` +
      `direct spawn p50 ${fmt(p(direct, 50))} / p95 ${fmt(p(direct, 95))} ms; overhead p50 ${fmt(p(ours, 50) - p(direct, 50))} ms ` +
      `(paired p50 ${fmt(p(overhead, 50))}, p95 ${fmt(p(overhead, 95))}); server CPU ${fmt(serverCpu)} ms/call` +
      (Number.isNaN(pg) ? '' : `, PostgreSQL CPU ${fmt(pg)} ms/call`),
  );
}

async function readDirect(dir: string, mb: number): Promise<{ ms: number; bytes: number }> {
  const t0 = nowMs();
  const bytes = await spawnDirect(['node', 'writer.js', String(mb)], dir);
  return { ms: nowMs() - t0, bytes };
}

async function readThroughTools(server: Server, mb: number): Promise<{ ms: number; bytes: number; skipped: number; calls: number }> {
  const t0 = nowMs();
  const started = await server.call('start_command', { command: `node writer.js ${mb}` });
  let cursor = 0;
  let skipped = 0;
  let calls = 0;
  for (;;) {
    const r = await server.call('get_command_output', { processId: started.processId, cursor, waitMs: 1000 });
    calls++;
    skipped += r.skippedBytes;
    const done = !r.running && r.nextCursor === cursor;
    cursor = r.nextCursor;
    if (done) break;
  }
  return { ms: nowMs() - t0, bytes: cursor - skipped, skipped, calls };
}

async function measureOutput(server: Server, dir: string, mb: number, rounds: number): Promise<void> {
  const mbps = (bytes: number, ms: number) => bytes / MB / (ms / 1000);
  const ours: number[] = [];
  const delivered: number[] = [];
  const direct: number[] = [];
  let last = { skipped: 0, calls: 0 };
  let cpu = 0;
  for (let i = 0; i < rounds; i++) {
    const d = await readDirect(dir, mb);
    if (d.bytes !== mb * MB) throw new Error(`direct read ${d.bytes} bytes, expected ${mb * MB}`);
    direct.push(mbps(d.bytes, d.ms));
    const cpuBefore = serverCpuMs(server.pid);
    const o = await readThroughTools(server, mb);
    cpu += serverCpuMs(server.pid) - cpuBefore;
    ours.push(mbps(o.bytes + o.skipped, o.ms));
    delivered.push(mbps(o.bytes, o.ms));
    last = o;
  }
  const best = (xs: number[]) => Math.max(...xs);
  console.log(
    `get_command_output on ${mb} MB × ${rounds}: tools ${best(ours).toFixed(1)} MB/s (best; ${ours.map((x) => x.toFixed(1)).join(', ')}; ` +
      `${last.calls} calls, ${last.skipped} bytes skipped in the last; bytes delivered ${best(delivered).toFixed(1)} MB/s); direct pipe ${best(direct).toFixed(1)} MB/s ` +
      `(${direct.map((x) => x.toFixed(1)).join(', ')}); ratio ${((100 * best(ours)) / best(direct)).toFixed(0)} %; server CPU ${(cpu / rounds / mb).toFixed(2)} ms/MB`,
  );
}

async function main(): Promise<void> {
  const deployed = asDeployed();
  const adminUrl = process.env.DATABASE_URL || '';
  const iterations = Math.round(envNumber('BENCH_CMD_ITERATIONS', 200));
  const warmup = Math.round(envNumber('BENCH_CMD_WARMUP', 20));
  const mb = Math.round(envNumber('BENCH_CMD_OUTPUT_MB', 50));
  const rounds = Math.round(envNumber('BENCH_CMD_OUTPUT_ROUNDS', 3));
  const commands = (process.env.BENCH_CMD_COMMANDS || 'true,node -e 0').split(',').map((c) => c.trim()).filter(Boolean);
  const spawnerChoice = process.env.BENCH_CMD_SPAWNER || 'both';
  if (!['0', '1', 'both'].includes(spawnerChoice)) throw new Error(`BENCH_CMD_SPAWNER must be 0, 1 or both; got ${JSON.stringify(spawnerChoice)}`);
  const spawners = spawnerChoice === 'both' ? ['0', '1'] : [spawnerChoice];
  const tmp = mkdtempSync(join(tmpdir(), 'palimpsest-bench-commands-'));
  const dir = mkdtempSync(join(tmp, 'workspace-'));
  writeFileSync(join(dir, 'writer.js'), WRITER);
  let database: BenchDatabase | undefined;
  let server: Server | undefined;
  try {
    database = adminUrl ? await createBenchDatabase(adminUrl) : undefined;
    const env = { PALIMPSEST_WORKSPACE_ROOT: dir, ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(tmp, 'pglite') }) };
    const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
    console.log(`palimpsest bench:commands — ${database ? 'PostgreSQL' : 'PGlite'}; Node ${process.version}, ${cpus().length} CPUs (load average ${load()}); ${deployed}; warm-up ${warmup}`);
    for (const spawner of spawners) {
      server = await connect({ ...env, ...(database ? {} : { PALIMPSEST_DATA_DIR: join(tmp, `pglite-${spawner}`) }), PALIMPSEST_COMMAND_SPAWNER: spawner });
      console.log(spawner === '1' ? 'commands forked by the spawner process (PALIMPSEST_COMMAND_SPAWNER=1; server CPU includes the spawner\'s)' : 'commands forked by the server itself (PALIMPSEST_COMMAND_SPAWNER=0)');
      for (const command of commands) await measureRuns(server, dir, command, iterations, warmup);
      if (rounds > 0) await measureOutput(server, dir, mb, rounds);
      await server.close().catch(() => undefined);
      server = undefined;
    }
    console.log(`load average at the end ${load()}`);
  } finally {
    await server?.close().catch(() => undefined);
    await database?.drop().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
