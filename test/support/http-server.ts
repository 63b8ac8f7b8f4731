import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createToken, parseScopes } from '@palimpsest/api/auth/api-tokens';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { CLI_BIN, isolatedStore, REPO_ROOT, runCli } from './cli-process';
import { HttpClient } from './http-client';

type IsolatedStore = Awaited<ReturnType<typeof isolatedStore>>;

export interface ApiProcess {
  url: string;
  /** The local token the banner printed (embedded store only), else null. */
  localToken: string | null;
  stderr(): string;
  /** SIGTERM (or `signal`), then wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; stderr: string }>;
  exited: Promise<{ code: number | null; stderr: string }>;
}

/** Spawns the built `palimpsest api` on a free port (in `cwd`, the repository by default) and waits for its "listening on" line. */
export function startApi(env: NodeJS.ProcessEnv, args: string[] = [], cwd: string = REPO_ROOT): Promise<ApiProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI_BIN, 'api', '--port', '0', ...args], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout.on('data', () => undefined); // JSON logs: drained so the pipe never blocks the server
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`palimpsest api did not start in 45 s:\n${stderr}`));
    }, 45_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        localToken: /local token\b.*?(pal_\S+)/.exec(stderr)?.[1] ?? null,
        stderr: () => stderr,
        exited,
        async stop(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`palimpsest api exited with ${code} before listening:\n${stderr}`));
    });
  });
}

/** `palimpsest tokens create --json` (run it while no gateway holds an embedded store). */
export async function createTokenCli(env: NodeJS.ProcessEnv, scopes: string, name = `e2e ${scopes}`): Promise<{ token: string; token_id: string }> {
  const r = await runCli(['tokens', 'create', '--scopes', scopes, '--name', name, '--json'], { env });
  if (r.code !== 0) throw new Error(`tokens create failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/**
 * Creates tokens straight in the store, in this process: one database open for all of them, instead of
 * one CLI process each (the CLI itself is tested in api-auth). Run it while no gateway holds an
 * embedded store.
 */
export async function seedTokens(
  env: NodeJS.ProcessEnv,
  specs: Record<string, string>,
  policies: Record<string, Record<string, unknown>> = {},
): Promise<Record<string, { token: string; token_id: string }>> {
  const db = await openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.PALIMPSEST_DATA_DIR! });
  try {
    await migrate(db);
    const out: Record<string, { token: string; token_id: string }> = {};
    for (const [name, scopes] of Object.entries(specs)) {
      const { token, record } = await createToken(db, { name, scopes: parseScopes(scopes), policy: policies[name] ?? null });
      out[name] = { token, token_id: record.token_id };
    }
    return out;
  } finally {
    await db.close();
  }
}

/**
 * One gateway for a describe block: a fresh store (PostgreSQL database or PGlite directory), a token with
 * `scopes`, `palimpsest api` started on it (with `env` on top of the store's) in beforeAll, and stopped (exit 0) and disposed in afterAll.
 * Read the fields from tests and hooks.
 */
export function useGateway(scopes = 'read,write,operator,auditor', env: NodeJS.ProcessEnv = {}): { readonly store: IsolatedStore; readonly api: ApiProcess; readonly http: HttpClient; readonly token: string } {
  let current: { store: IsolatedStore; api: ApiProcess; http: HttpClient; token: string } | undefined;
  let store: IsolatedStore | undefined;
  let api: ApiProcess | undefined;
  beforeAll(async () => {
    store = await isolatedStore();
    const { token } = (await seedTokens(store.env, { all: scopes })).all!;
    api = await startApi({ ...store.env, ...env }, ['--no-local-token']);
    current = { store, api, http: new HttpClient(api.url, token), token };
  });
  afterAll(async () => {
    const stopped = await api?.stop();
    expect(stopped?.code).toBe(0);
    await store?.dispose();
  });
  const get = () => {
    if (!current) throw new Error('useGateway(): the gateway starts in beforeAll');
    return current;
  };
  return {
    get store() {
      return get().store;
    },
    get api() {
      return get().api;
    },
    get http() {
      return get().http;
    },
    get token() {
      return get().token;
    },
  };
}
