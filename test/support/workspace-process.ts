import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CRASH_POINT_ENV } from '@palimpsest/testing/crash-point';
import { waitForNoSessions, readEventLog, type LoggedEvent } from './crash-recovery';
import { isolatedStore, runCli, type CliResult } from './cli-process';
import { JsonLinesClient } from './json-lines-client';

/** What the workspace e2e specs share: a CLI call in a workspace, the journal events of a target, stray publication files. */

/** A migrated store of its own and a workspace directory for it, the crash point variable present and empty (set per call). */
export async function crashWorkspace(prefix: string): Promise<{ dir: string; env: NodeJS.ProcessEnv; dispose: () => Promise<void> }> {
  const store = await isolatedStore();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir, [CRASH_POINT_ENV]: '' };
  const migrated = await runCli(['migrate'], { env });
  if (migrated.code !== 0) throw new Error(`migrate exited ${migrated.code}: ${migrated.stderr}`);
  return {
    dir,
    env,
    dispose: async () => {
      rmSync(dir, { recursive: true, force: true });
      await store.dispose();
    },
  };
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export interface CallResult extends CliResult {
  json: Record<string, any>;
}

/** `palimpsest call <operation> --args <json>` as a real process; `extra` adds to the environment (a crash point). */
export async function callCli(env: NodeJS.ProcessEnv, operation: string, args: unknown, extra: NodeJS.ProcessEnv = {}): Promise<CallResult> {
  const r = await runCli(['call', operation, '--args', JSON.stringify(args)], { env: { ...env, ...extra } });
  let json: Record<string, any> = {};
  try {
    json = r.stdout.trim() ? JSON.parse(r.stdout) : {};
  } catch {
    throw new Error(`${operation} printed no JSON (code ${r.code}, signal ${r.signal}):\n${r.stdout}\n${r.stderr}`);
  }
  return { ...r, json };
}

/**
 * Calls in one `palimpsest serve` process, in the order `steps` makes them: for the steps a test sets up or
 * reads back, each of which `callCli` would start a process for. `call` resolves to the operation's answer
 * (the JSON-RPC result, or a refusal's error data, which is what `palimpsest call` prints). The process ends
 * at EOF (exit 0) before this resolves: an embedded store is free again.
 */
export async function withServe<T>(env: NodeJS.ProcessEnv, steps: (call: (operation: string, args: unknown) => Promise<Record<string, any>>) => Promise<T>): Promise<T> {
  const serve = new JsonLinesClient([], env);
  try {
    const value = await steps(async (operation, args) => {
      const response = await serve.call(operation, args);
      const answer = response.result ?? response.error?.data;
      if (!answer) throw new Error(`${operation} answered no result: ${JSON.stringify(response)}\n${serve.stderr}`);
      return answer;
    });
    serve.end();
    const { code, signal } = await serve.exited;
    if (code !== 0) throw new Error(`palimpsest serve exited ${code ?? signal}:\n${serve.stderr}`);
    return value;
  } finally {
    serve.kill();
  }
}

/** After a client was killed: on PostgreSQL, wait until its sessions (and the locks they held) are gone. */
export async function settleKilledClient(env: NodeJS.ProcessEnv): Promise<void> {
  if (env.DATABASE_URL) await waitForNoSessions(env.DATABASE_URL);
}

/** `.palimpsest-*` names (staged files, backups) left in a directory. */
export const strayFiles = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.palimpsest-'));

export interface JournalEvents {
  journal_id: string;
  events: LoggedEvent[];
}

/** The store's event log (read once, then filtered: each read opens the store). */
export const eventLog = (env: NodeJS.ProcessEnv): Promise<LoggedEvent[]> => readEventLog(env);

/** Every publication journal that planned a file of this target, in log order, with its events. */
export function journalsOf(log: LoggedEvent[], targetId: string): JournalEvents[] {
  const started = log.filter((e) => e.event_type === 'PublicationStarted' && e.data.files.some((f: { target_id: string }) => f.target_id === targetId));
  return started.map((s) => ({ journal_id: s.data.journal_id, events: log.filter((e) => e.stream_id === s.stream_id) }));
}

/** How many checkpoints the target's stream holds. */
export function checkpointCount(log: LoggedEvent[], targetId: string): number {
  return log.filter((e) => e.stream_id === `target-${targetId}` && e.event_type === 'CheckpointSaved').length;
}
