import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { documentOf, marker } from './scenarios';

/** The gateway as a user runs it (`palimpsest api`), and autocannon driving guarded submits at it: shared by the HTTP benches. */

const CLI = join(__dirname, '..', '..', 'apps', 'cli', 'bin', 'palimpsest.js');

export interface Gateway {
  url: string;
  child: ChildProcess;
}

/** BENCH_GATEWAY_NODE_ARGS: flags for the gateway's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. */
export function startGateway(databaseUrl: string, connections: number): Promise<Gateway> {
  const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'api', '--port', '0'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PALIMPSEST_PG_POOL_MAX: String(connections), LOG_LEVEL: process.env.BENCH_HTTP_LOG_LEVEL ?? 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      stderr += d;
      const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (url) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`palimpsest api exited ${code}: ${stderr}`)));
  });
}

/**
 * Every request takes a target no other request is working on (64 targets, 32 connections) and submits at
 * the version its last answer named, so a submit is rejected only when a previous run left a version
 * behind (at most one per target, and that answer carries the current version). autocannon's per-request
 * context does not identify a connection, so the target is read back from each answer instead.
 */
export async function cannon(url: string, token: string, ids: string[], seconds: number, versions: Map<string, number>, connections: number) {
  const free = [...ids];
  let accepted = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const id = free.shift()!;
          const v = versions.get(id)!;
          return {
            ...req,
            path: `/v1/targets/${id}/edits`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'if-match': `"${v}"` },
            body: JSON.stringify({ intent: 'bench', edits: [{ match: marker(v), replace: marker(v + 1) }] }),
          };
        },
        onResponse: (status, body) => {
          const answer = JSON.parse(body) as { status?: string; target_file_id?: string; current_version?: number };
          if (status === 200 && answer.status === 'accepted') accepted++;
          if (!answer.target_file_id) return;
          if (typeof answer.current_version === 'number') versions.set(answer.target_file_id, answer.current_version);
          free.push(answer.target_file_id);
        },
      },
    ],
  });
  return { result, accepted };
}

export async function createTargets(url: string, token: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await fetch(`${url}/v1/targets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ filename: `bench-${i}.md`, content: documentOf(1024) }),
    });
    ids.push(((await r.json()) as { target_file_id: string }).target_file_id);
  }
  return ids;
}

