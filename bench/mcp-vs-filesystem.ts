import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type AppContext } from '@palimpsest/application/app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '@palimpsest/application/dispatch/dispatch';
import { createMcpServer } from '@palimpsest/mcp/mcp-server/mcp-server';
import { responseModeFrom } from '@palimpsest/mcp/mcp-server/response-mode';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openPgliteDb } from '@palimpsest/store/pglite/pglite-db';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createBenchDatabase, serverFacts, type BenchDatabase } from './bench-database';
import { asDeployed, benchGuard } from './deployed-env';
import { processCpuMs } from './process-cpu';
import { ProfilingDb } from './profiling-db';
import { documentOf, marker, profileSubmits } from './scenarios';
import { report, summarize, type PathName, type Size, type SizeResult, type Summary } from './mcp-vs-filesystem.report';
import { envNumber, nowMs } from './stats';

/**
 * Round trip of one guarded 1-edit submit over MCP stdio (`palimpsest mcp`, palimpsest_submit_edits with
 * expected_target_version, replacing the unique marker @@v@@ by @@v+1@@) beside
 * `@modelcontextprotocol/server-filesystem`'s edit_file applying the same edit to the same text in a file,
 * both driven by the official SDK Client over stdio, on a 1 KB and a 1 MiB text. Measurements are
 * interleaved (one of each per iteration, order alternating), so both see the same machine load.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:mcp
 *
 * With DATABASE_URL a fresh PostgreSQL database is created there and dropped after; PGlite runs too
 * (a temporary data directory) unless BENCH_MCP_PGLITE=0. Without DATABASE_URL only PGlite runs.
 * Env: BENCH_MCP_ITERATIONS_1KB (default 200), BENCH_MCP_ITERATIONS_1MB (default 50),
 * BENCH_MCP_WARMUP (unmeasured iterations per path and size, default 20), BENCH_MCP_PGLITE (default 1).
 *
 * Besides the two stdio round trips, each iteration also times (for the breakdown): dispatch() in this
 * process on the same backend, the same MCP server in this process over the SDK's InMemoryTransport (no
 * serialization, no process hop), and the filesystem server's own applyFileEdits() in this process; plus
 * a JSON-RPC ping to each stdio server and each server process's CPU time per call (/proc).
 */

const KB = 1024;
const MB = 1024 * 1024;
const REPO_ROOT = resolve(__dirname, '..', '..');
const CLI_BIN = join(REPO_ROOT, 'apps', 'cli', 'bin', 'palimpsest.js');
const FS_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const FS_LIB = join(FS_SERVER, '..', 'lib.js');

type ToolResult = { isError?: boolean; structuredContent?: Record<string, any>; content?: { type: string; text?: string }[] };

interface StdioServer {
  client: Client;
  pid: number | null;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
  stderrTail(): string;
}

async function connectStdio(label: string, command: string, args: string[], env: Record<string, string>): Promise<StdioServer> {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const client = new Client({ name: `bench-mcp-vs-filesystem (${label})`, version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${label}: could not connect: ${(error as Error).message}\n${stderr}`);
  }
  await client.listTools(); // as a host would; also caches the output-schema validators the SDK applies to results
  return {
    client,
    pid: transport.pid,
    call: async (name, callArgs) => (await client.callTool({ name, arguments: callArgs })) as ToolResult,
    close: () => client.close(),
    stderrTail: () => stderr,
  };
}

/** The filesystem server is an ES module: import() it as one, not through the CommonJS require TypeScript emits. */
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

interface Backend {
  label: string;
  /** Environment of `palimpsest mcp`. */
  env: Record<string, string>;
  /** A Db for the in-process diagnostics (same server for PostgreSQL; a separate data directory for PGlite). */
  openInProcess(): Promise<Db>;
  dispose(): Promise<void>;
}

/** One file edited through the filesystem server and a sibling edited in process through its applyFileEdits(). */
class FsFiles {
  version = 0;
  libVersion = 0;
  constructor(
    readonly path: string,
    readonly libPath: string,
  ) {}
}

async function main(): Promise<void> {
  const deployed = asDeployed();
  const adminUrl = process.env.DATABASE_URL || '';
  const sizes: Size[] = [
    { label: '1 KB', bytes: KB, iterations: Math.round(envNumber('BENCH_MCP_ITERATIONS_1KB', 200)) },
    { label: '1 MB', bytes: MB, iterations: Math.round(envNumber('BENCH_MCP_ITERATIONS_1MB', 50)) },
  ];
  const warmup = Math.round(envNumber('BENCH_MCP_WARMUP', 20));
  const withPglite = !adminUrl || envNumber('BENCH_MCP_PGLITE', 1) !== 0;
  const mode = responseModeFrom(process.env);
  if (!existsSync(CLI_BIN) || !existsSync(join(REPO_ROOT, 'dist', 'apps', 'cli', 'src', 'main.js'))) {
    throw new Error(`palimpsest is not built (looked for ${CLI_BIN} and dist/): run npm run build`);
  }

  const tmp = mkdtempSync(join(tmpdir(), 'palimpsest-bench-mcp-'));
  const fsDir = join(tmp, 'files');
  mkdirSync(fsDir);
  const disposers: (() => Promise<void>)[] = [async () => rmSync(tmp, { recursive: true, force: true })];
  const cleanup = async () => {
    for (const d of disposers.splice(0).reverse()) await d().catch((e) => console.error(`bench: cleanup: ${(e as Error).message}`));
  };
  const onSignal = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.stdout.on('error', () => undefined); // a closed pipe must not skip the cleanup

  try {
    const backends: Backend[] = [];
    let pgFacts = '';
    if (adminUrl) {
      const facts = await serverFacts(adminUrl);
      pgFacts = `PostgreSQL ${facts.server_version} (synchronous_commit=${facts.synchronous_commit}, fsync=${facts.fsync})`;
      let bench: BenchDatabase | undefined;
      backends.push({
        label: 'PostgreSQL',
        env: {},
        async openInProcess() {
          return openPostgresDb({ ...benchGuard('postgres'), connectionString: this.env.DATABASE_URL!, poolMax: 2 });
        },
        async dispose() {
          await bench?.drop();
        },
      });
      bench = await createBenchDatabase(adminUrl);
      disposers.push(() => bench!.drop());
      backends[0]!.env = { DATABASE_URL: bench.url };
    }
    if (withPglite) {
      backends.push({
        label: 'PGlite',
        env: { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(tmp, 'pglite-mcp') },
        openInProcess: () => openPgliteDb({ ...benchGuard('pglite'), dataDir: join(tmp, 'pglite-in-process') }),
        async dispose() {},
      });
    }
    console.log(
      `palimpsest bench:mcp — ${[pgFacts, withPglite ? 'PGlite (temporary data directory)' : ''].filter(Boolean).join(' and ')}; ` +
        `Node ${process.version}, ${cpus().length} CPUs (load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}); ` +
        `${deployed}; response mode ${mode}; warm-up ${warmup} per path; ${sizes.map((s) => `${s.label} × ${s.iterations}`).join(', ')}`,
    );

    // The filesystem server, one for the whole run: files in a temporary directory it is allowed to edit.
    const files = new Map<number, FsFiles>();
    for (const size of sizes) {
      const f = new FsFiles(join(fsDir, `bench-${size.bytes}.txt`), join(fsDir, `bench-${size.bytes}-in-process.txt`));
      writeFileSync(f.path, documentOf(size.bytes));
      writeFileSync(f.libPath, documentOf(size.bytes));
      files.set(size.bytes, f);
    }
    const fsServer = await connectStdio('server-filesystem', process.execPath, [FS_SERVER, fsDir], {});
    disposers.push(() => fsServer.close());
    const fsLib = (await importEsm(pathToFileURL(FS_LIB).href)) as {
      applyFileEdits(path: string, edits: { oldText: string; newText: string }[], dryRun?: boolean): Promise<string>;
    };

    const results: SizeResult[] = [];
    const pings: { backend: string; ours: Summary; fs: Summary }[] = [];
    for (const backend of backends) {
      const ours = await connectStdio(`palimpsest mcp (${backend.label})`, process.execPath, [CLI_BIN, 'mcp'], backend.env);
      const oursClose = () => ours.close();
      disposers.push(oursClose);
      const db = await backend.openInProcess();
      await migrate(db);
      const ctx = appContext(db);
      const inMemory = await connectInMemory(ctx, mode);
      try {
        for (const size of sizes) {
          results.push(await measureSize(backend.label, size, warmup, ours, fsServer, ctx, inMemory, files.get(size.bytes)!, fsLib));
        }
        pings.push({ backend: backend.label, ...(await measurePings(ours, fsServer, Math.max(...sizes.map((s) => s.iterations)), warmup)) });
      } finally {
        await inMemory.close();
        await db.close();
        await ours.close();
        disposers.splice(disposers.indexOf(oursClose), 1);
      }
      await backend.dispose();
    }
    for (const [bytes, f] of files) {
      if (!readFileSync(f.path, 'utf8').includes(marker(f.version))) throw new Error(`the ${bytes}-byte file lost its marker`);
    }

    report(results, pings);
  } finally {
    await cleanup();
  }
}

async function connectInMemory(ctx: AppContext, mode: ReturnType<typeof responseModeFrom>): Promise<{ client: Client; close(): Promise<void> }> {
  const server = createMcpServer(ctx, { profile: 'full', mode, version: 'bench' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench-mcp-vs-filesystem (in memory)', version: '1.0.0' });
  await client.connect(clientSide);
  await client.listTools();
  return { client, close: async () => (await client.close(), await server.close()) };
}

const submitArgs = (targetId: string, version: number) => ({
  target_file_id: targetId,
  intent: 'bench',
  expected_target_version: version,
  edits: [{ match: marker(version), replace: marker(version + 1) }],
});

function accepted(r: Record<string, any> | undefined, version: number, path: string): void {
  if (r?.status !== 'accepted' || r.version !== version + 1) {
    throw new Error(`${path}: expected acceptance at version ${version + 1}, got ${JSON.stringify(r).slice(0, 400)}`);
  }
}

async function measureSize(
  backend: string,
  size: Size,
  warmup: number,
  ours: StdioServer,
  fsServer: StdioServer,
  ctx: AppContext,
  inMemory: { client: Client },
  file: FsFiles,
  fsLib: { applyFileEdits(path: string, edits: { oldText: string; newText: string }[], dryRun?: boolean): Promise<string> },
): Promise<SizeResult> {
  const content = documentOf(size.bytes);
  const init = async (call: (args: Record<string, unknown>) => Promise<Record<string, any> | undefined>, name: string) => {
    const r = await call({ filename: `bench-${size.bytes}-${name}.txt`, content });
    if (r?.status !== 'ok') throw new Error(`initialize (${name}) failed: ${JSON.stringify(r).slice(0, 400)}`);
    return { id: r.target_file_id as string, version: 0 };
  };
  const stdioTarget = await init(async (a) => (await ours.call('palimpsest_initialize_target', a)).structuredContent, 'stdio');
  const dispatchTarget = await init((a) => dispatch(ctx, 'palimpsest_initialize_target', a) as Promise<Record<string, any>>, 'dispatch');
  const memoryTarget = await init(
    async (a) => ((await inMemory.client.callTool({ name: 'palimpsest_initialize_target', arguments: a })) as ToolResult).structuredContent,
    'inmemory',
  );

  let lastOurs: ToolResult | undefined;
  let lastFs: ToolResult | undefined;
  const steps: Record<PathName, () => Promise<void>> = {
    'ours-stdio': async () => {
      const r = await ours.call('palimpsest_submit_edits', submitArgs(stdioTarget.id, stdioTarget.version));
      accepted(r.structuredContent, stdioTarget.version++, 'palimpsest mcp');
      lastOurs = r;
    },
    'fs-stdio': async () => {
      const v = file.version;
      const r = await fsServer.call('edit_file', { path: file.path, edits: [{ oldText: marker(v), newText: marker(v + 1) }] });
      if (r.isError) throw new Error(`edit_file failed: ${r.content?.[0]?.text?.slice(0, 400)}`);
      file.version++;
      lastFs = r;
    },
    'ours-dispatch': async () => {
      const r = await dispatch(ctx, 'palimpsest_submit_edits', submitArgs(dispatchTarget.id, dispatchTarget.version));
      accepted(r, dispatchTarget.version++, 'dispatch()');
    },
    'ours-inmemory-mcp': async () => {
      const r = (await inMemory.client.callTool({
        name: 'palimpsest_submit_edits',
        arguments: submitArgs(memoryTarget.id, memoryTarget.version),
      })) as ToolResult;
      accepted(r.structuredContent, memoryTarget.version++, 'in-memory MCP');
    },
    'fs-applyFileEdits': async () => {
      const v = file.libVersion;
      await fsLib.applyFileEdits(file.libPath, [{ oldText: marker(v), newText: marker(v + 1) }]);
      file.libVersion++;
    },
  };
  const order = Object.keys(steps) as PathName[];
  const samples = Object.fromEntries(order.map((p) => [p, [] as number[]])) as Record<PathName, number[]>;

  for (let i = 0; i < warmup; i++) for (const p of order) await steps[p]();
  // Server CPU is read around the measured loop: each stdio server only works on its own calls.
  const cpu0 = { ours: processCpuMs(ours.pid), fs: processCpuMs(fsServer.pid) };
  for (let i = 0; i < size.iterations; i++) {
    // Rotate the order every iteration so no path always runs right after another.
    for (let k = 0; k < order.length; k++) {
      const p = order[(i + k) % order.length]!;
      const t0 = nowMs();
      await steps[p]();
      samples[p].push(nowMs() - t0);
    }
  }
  const cpu1 = { ours: processCpuMs(ours.pid), fs: processCpuMs(fsServer.pid) };

  // Where dispatch()'s own time goes: the same submits through a timing Db, on a target of their own.
  const profiled = new ProfilingDb(ctx.db);
  const profileTarget = await init((a) => dispatch(appContext(profiled), 'palimpsest_initialize_target', a) as Promise<Record<string, any>>, 'profile');
  const profile = await profileSubmits(profiled, profileTarget.id, size.iterations);

  const lastOursArgs = submitArgs(stdioTarget.id, stdioTarget.version - 1);
  const lastFsArgs = { path: file.path, edits: [{ oldText: marker(file.version - 1), newText: marker(file.version) }] };
  return {
    backend,
    size,
    samples,
    profile,
    serverCpuMsPerCall: { ours: (cpu1.ours - cpu0.ours) / size.iterations, fs: (cpu1.fs - cpu0.fs) / size.iterations },
    wire: {
      oursRequest: JSON.stringify({ name: 'palimpsest_submit_edits', arguments: lastOursArgs }).length,
      oursResponse: JSON.stringify(lastOurs).length,
      fsRequest: JSON.stringify({ name: 'edit_file', arguments: lastFsArgs }).length,
      fsResponse: JSON.stringify(lastFs).length,
    },
  };
}

async function measurePings(ours: StdioServer, fsServer: StdioServer, n: number, warmup: number): Promise<{ ours: Summary; fs: Summary }> {
  const o: number[] = [];
  const f: number[] = [];
  for (let i = 0; i < warmup + n; i++) {
    for (const [server, into] of (i % 2 ? [[ours, o], [fsServer, f]] : [[fsServer, f], [ours, o]]) as [StdioServer, number[]][]) {
      const t0 = nowMs();
      await server.client.ping();
      if (i >= warmup) into.push(nowMs() - t0);
    }
  }
  return { ours: summarize(o), fs: summarize(f) };
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`bench:mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
