import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL primary and a synchronous standby of the machine's own server binaries (Debian's), started
 * by the test on free ports in a directory of its own, as the `postgres` user: streaming replication with
 * synchronous_standby_names, so a commit is acknowledged only once the standby has flushed it.
 */
export interface PgCluster {
  primary: PgNode;
  standby: PgNode;
  /** `postgres://postgres@127.0.0.1:<primary>,127.0.0.1:<standby>/<database>`: both servers, the writable one found. */
  uri(database: string): string;
  dispose(): Promise<void>;
}

export interface PgNode {
  port: number;
  dir: string;
  uri(database: string): string;
  /** SIGKILL of the postmaster and every backend: what a crashed machine leaves, the WAL on disk. */
  kill(): void;
  /** pg_ctl promote, waiting until it accepts writes. */
  promote(): void;
}

const BIN = (() => {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  return join('/usr/lib/postgresql', versions.at(-1)!, 'bin');
})();

/** The servers run as `postgres` when the tests run as root (which initdb refuses), else as the tests' own user. */
function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  return { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
}

function asPostgres(tool: string, args: string[]): string {
  const r = spawnSync(join(BIN, tool), args, { ...postgresUser(), cwd: '/tmp', env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' }, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function node(dir: string, port: number): PgNode {
  return {
    port,
    dir,
    uri: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    kill() {
      const pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const children = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
        try {
          return Number(readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
        } catch {
          return false;
        }
      });
      for (const target of [pid, ...children.map(Number)]) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
    promote() {
      asPostgres('pg_ctl', ['promote', '-D', dir, '-w', '-t', '60']);
    },
  };
}

function configure(dir: string, port: number, extra: string[]): void {
  appendFileSync(join(dir, 'postgresql.auto.conf'), [`port = ${port}`, `listen_addresses = '127.0.0.1'`, `unix_socket_directories = '${dir}'`, ...extra, ''].join('\n'));
}

export async function startCluster(): Promise<PgCluster> {
  const user = postgresUser();
  const root = mkdtempSync(join(tmpdir(), 'palimpsest-pg-cluster-'));
  if (user) chownSync(root, user.uid, user.gid);
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primaryDir = join(root, 'primary');
  const standbyDir = join(root, 'standby');
  asPostgres('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  configure(primaryDir, primaryPort, [`synchronous_standby_names = 'standby1'`, `synchronous_commit = on`]);
  asPostgres('pg_ctl', ['start', '-D', primaryDir, '-l', join(root, 'primary.log'), '-w', '-t', '60']);
  asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream']);
  // The base backup copied the primary's settings: once promoted, the standby has no standby of its own to wait for.
  configure(standbyDir, standbyPort, [`primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres application_name=standby1'`, `synchronous_standby_names = ''`]);
  asPostgres('pg_ctl', ['start', '-D', standbyDir, '-l', join(root, 'standby.log'), '-w', '-t', '60']);
  const primary = node(primaryDir, primaryPort);
  const standby = node(standbyDir, standbyPort);
  await waitForSyncStandby(primary.uri('postgres'));
  return {
    primary,
    standby,
    uri: (database) => `postgres://postgres@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/${database}`,
    async dispose() {
      for (const dir of [primaryDir, standbyDir]) {
        try {
          asPostgres('pg_ctl', ['stop', '-D', dir, '-m', 'immediate', '-w', '-t', '30']);
        } catch {
          // not running (killed by the test)
        }
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Until the primary reports its standby as synchronous (commits wait for it from then on). */
async function waitForSyncStandby(uri: string): Promise<void> {
  const client = new pg.Client({ connectionString: uri });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ sync_state: string }>(`SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby1'`);
      if (rows[0]?.sync_state === 'sync') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}
