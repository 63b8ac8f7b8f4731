import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { nowMs, summarize, type LatencySummary } from './stats';

/**
 * The executor relay (`palimpsest connect` behind `palimpsest api`), not the NATS JetStream relay of
 * bench/relay.ts. Two parts, each with its baseline from the same run:
 *
 * 1. A relayed edit_file (HTTP client → gateway → WebSocket → executor, which edits its own directory
 *    under its own store and answers) beside the same edit_file on a gateway that holds the directory
 *    itself, rounds interleaved; overhead = relayed p50 − local p50 (aim ≤ 3 ms).
 * 2. EXECUTORS executors (raw protocol clients simulated in this process, one project each, answering
 *    read_file at once) connected to one gateway: how long they take to connect, the gateway's RSS
 *    before and after, and CLIENTS HTTP clients calling random projects: throughput and round-trip p50/p99.
 *
 *   npm run build && node dist/bench/relay-executor.js
 *
 * Gateways run on embedded stores (temporary directories) unless DATABASE_URL is set: then the gateways
 * share that database. RELAY_BENCH_EDITS (default 300 per side), RELAY_BENCH_ROUNDS (default 3),
 * RELAY_BENCH_EXECUTORS (default 100), RELAY_BENCH_CLIENTS (default 16), RELAY_BENCH_CALLS (default 4000).
 */
const REPO_ROOT = resolve(__dirname, '..', '..');
const CLI_BIN = join(REPO_ROOT, 'apps', 'cli', 'bin', 'palimpsest.js');
const EDITS = Number(process.env.RELAY_BENCH_EDITS ?? 300);
const ROUNDS = Number(process.env.RELAY_BENCH_ROUNDS ?? 3);
const EXECUTORS = Number(process.env.RELAY_BENCH_EXECUTORS ?? 100);
const CLIENTS = Number(process.env.RELAY_BENCH_CLIENTS ?? 16);
const CALLS = Number(process.env.RELAY_BENCH_CALLS ?? 4_000);

interface Proc {
  child: ChildProcess;
  url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** A CLI process, ready once its stderr matches `ready` (the match's first group is its URL, when any). */
function start(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<Proc> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: REPO_ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let started = false;
  const exited = new Promise<void>((done) => child.once('close', () => done()));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start in 60 s:\n${stderr}`)), 60_000);
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const hit = started ? null : ready.exec(stderr);
      if (!hit) return;
      started = true;
      clearTimeout(timer);
      resolveStart({ child, url: hit[1] ?? '', stderr: () => stderr, stop: async () => (child.exitCode === null && child.kill('SIGTERM'), exited) });
    });
    void exited.then(() => reject(new Error(`${args[0]} exited before it was ready:\n${stderr}`)));
  });
}

/** A gateway without tokens (loopback only), on its own embedded store unless DATABASE_URL is set. */
function gateway(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Proc> {
  const store = process.env.DATABASE_URL ? {} : { DATABASE_URL: '', PALIMPSEST_DATA_DIR: dataDir };
  return start(['api', '--port', '0', '--no-auth'], { ...store, ...env }, /listening on (http:\/\/\S+)/);
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as Record<string, unknown>;
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const fmt = (s: LatencySummary) => `p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms, mean ${s.mean.toFixed(2)} ms (${s.samples} samples)`;

/** `count` edits of one file, one at a time, each replacing the previous one's token. */
async function edits(url: string, file: string, extra: Record<string, unknown>, count: number, state: { n: number }): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = nowMs();
    const answer = await post(`${url}/v1/files/edit`, { ...extra, path: file, oldString: `token-${state.n}`, newString: `token-${state.n + 1}` });
    samples.push(nowMs() - t0);
    if (answer.status !== 'ok') throw new Error(`edit_file answered ${JSON.stringify(answer).slice(0, 400)}`);
    state.n++;
  }
  return samples;
}

async function editOverhead(root: string): Promise<void> {
  const relayedDir = mkdtempSync(join(root, 'relayed-'));
  const localDir = mkdtempSync(join(root, 'local-'));
  for (const dir of [relayedDir, localDir]) writeFileSync(join(dir, 'edited.txt'), 'head\ntoken-0\ntail\n');
  const hub = await gateway(mkdtempSync(join(root, 'hub-data-')));
  const local = await gateway(mkdtempSync(join(root, 'local-data-')), { PALIMPSEST_WORKSPACE_ROOT: localDir });
  const executor = await start(['connect', '--gateway', hub.url, '--project', `site=${relayedDir}`], { DATABASE_URL: '' }, /connected to/);
  try {
    const relayed: number[] = [];
    const direct: number[] = [];
    const states = { relayed: { n: 0 }, local: { n: 0 } };
    // Warm both paths (the first touch binds the file; JIT), then interleave the measured rounds.
    await edits(hub.url, 'edited.txt', { project: 'site' }, 20, states.relayed);
    await edits(local.url, 'edited.txt', {}, 20, states.local);
    for (let r = 0; r < ROUNDS; r++) {
      relayed.push(...(await edits(hub.url, 'edited.txt', { project: 'site' }, EDITS / ROUNDS, states.relayed)));
      direct.push(...(await edits(local.url, 'edited.txt', {}, EDITS / ROUNDS, states.local)));
    }
    const [rs, ls] = [summarize(relayed), summarize(direct)];
    console.log(`edit_file relayed (gateway → executor): ${fmt(rs)}`);
    console.log(`edit_file local (the gateway holds the directory): ${fmt(ls)}`);
    console.log(`relay overhead: p50 ${(rs.p50 - ls.p50).toFixed(2)} ms (aim ≤ 3 ms), p99 ${(rs.p99 - ls.p99).toFixed(2)} ms`);
  } finally {
    await executor.stop();
    await hub.stop();
    await local.stop();
  }
}

/** A simulated executor: hello with one project, heartbeats, and every read_file answered at once. */
function simulated(url: string, n: number): Promise<{ ws: WebSocket; close(): void }> {
  return new Promise((ready, fail) => {
    const ws = new WebSocket(url);
    let beat: NodeJS.Timeout | undefined;
    ws.on('error', fail);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', protocolVersion: 1, deviceId: `dev_bench_${n}`, cliVersion: 'bench', platform: 'bench', projects: [{ id: `prj_bench_${n}`, slug: `p${n}` }] })));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as { type: string; requestId?: string; heartbeatIntervalMs?: number };
      if (m.type === 'hello.ack') {
        beat = setInterval(() => ws.send(JSON.stringify({ type: 'heartbeat', at: Date.now() })), m.heartbeatIntervalMs ?? 30_000);
        ready({ ws, close: () => (clearInterval(beat), ws.close()) });
      } else if (m.type === 'tool.call') {
        const value = { status: 'ok', content: 'x\n', totalLines: 1, truncated: false };
        ws.send(JSON.stringify({ type: 'tool.result', requestId: m.requestId, durationMs: 0, result: { ok: true, value } }));
      }
    });
  });
}

async function manyExecutors(root: string): Promise<void> {
  const gw = await gateway(mkdtempSync(join(root, 'many-data-')));
  const wsUrl = `${gw.url.replace(/^http/, 'ws')}/v1/executors/connect`;
  const links: { close(): void }[] = [];
  try {
    await fetch(`${gw.url}/health`); // the first request warms the route table
    const before = rssMb(gw.child.pid!);
    const t0 = nowMs();
    links.push(...(await Promise.all(Array.from({ length: EXECUTORS }, (_, n) => simulated(wsUrl, n)))));
    const connectMs = nowMs() - t0;
    const after = rssMb(gw.child.pid!);
    console.log(`${EXECUTORS} executors connected in ${connectMs.toFixed(0)} ms; gateway RSS ${before.toFixed(1)} MB → ${after.toFixed(1)} MB (${((after - before) * 1024 / EXECUTORS).toFixed(0)} KB per executor)`);

    const samples: number[] = [];
    let next = 0;
    const client = async () => {
      while (next < CALLS) {
        const i = next++;
        const t = nowMs();
        const answer = (await (await fetch(`${gw.url}/v1/files/content?project=p${i % EXECUTORS}&path=x.txt`)).json()) as Record<string, unknown>;
        samples.push(nowMs() - t);
        if (answer.status !== 'ok') throw new Error(`read_file answered ${JSON.stringify(answer).slice(0, 400)}`);
      }
    };
    const started = nowMs();
    await Promise.all(Array.from({ length: CLIENTS }, client));
    const seconds = (nowMs() - started) / 1000;
    console.log(`${CLIENTS} clients, ${CALLS} relayed read_file calls over ${EXECUTORS} executors: ${(CALLS / seconds).toFixed(0)} calls/s, round trip ${fmt(summarize(samples))}`);
  } finally {
    for (const l of links) l.close();
    await gw.stop();
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'palimpsest-bench-relay-executor-'));
  try {
    console.log(`executor relay bench (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded stores'}; ${EDITS} edits a side in ${ROUNDS} rounds; ${EXECUTORS} executors, ${CLIENTS} clients, ${CALLS} calls)`);
    await editOverhead(root);
    await manyExecutors(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
