import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A fresh PostgreSQL database for one benchmark run, created on the server DATABASE_URL names and dropped after. */
export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl, application_name: 'palimpsest-bench-admin' });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `palimpsest_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

export async function serverFacts(adminUrl: string): Promise<Record<string, string>> {
  return withAdmin(adminUrl, async (admin) => {
    const facts: Record<string, string> = {};
    for (const setting of ['server_version', 'synchronous_commit', 'fsync', 'shared_buffers', 'max_connections']) {
      const { rows } = await admin.query(`SHOW ${setting}`);
      facts[setting] = String(Object.values(rows[0])[0]);
    }
    return facts;
  });
}
