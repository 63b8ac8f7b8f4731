import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const CLI_BIN = join(REPO_ROOT, 'apps', 'cli', 'bin', 'palimpsest.js');

export interface CliResult {
  code: number | null;
  /** The signal that ended the process (SIGKILL at a crash point), else null. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI as a real process. */
export function runCli(args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      cwd: opts.cwd ?? REPO_ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * An isolated store for CLI processes: a fresh PostgreSQL database when DATABASE_URL is set,
 * else a temporary PGlite data directory. `env` is what the child processes need.
 */
export async function isolatedStore(): Promise<{ env: NodeJS.ProcessEnv; dispose(): Promise<void> }> {
  const admin = process.env.DATABASE_URL;
  if (admin) {
    const name = `palimpsest_e2e_${randomBytes(5).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.toString() },
      async dispose() {
        const c = new pg.Client({ connectionString: admin });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-'));
  return {
    env: { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(dir, 'data') },
    async dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
