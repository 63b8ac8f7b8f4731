import { appContext } from '@palimpsest/composition/app-context.builder';
import { migrate } from '@palimpsest/store/migrate';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import pg from 'pg';
import { createBenchDatabase } from './bench-database';
import { asDeployed, benchGuard } from './deployed-env';
import { createTargets, documentOf, rawEdit, rawSetup, submit } from './scenarios';
import { envNumber, table } from './stats';

/**
 * Where the WAL of one accepted edit goes, by relation: the records pg_walinspect reads between two
 * LSNs, kept when they touch a block of the bench database (or commit one of its transactions), so
 * other sessions on a shared server do not count. Full-page images are shown apart: they depend on
 * when the last checkpoint ran, the rest is deterministic.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/wal-breakdown.js
 *
 * Env: BENCH_WAL_EDITS (measured edits, default 200), BENCH_WAL_BYTES (document size, default 1024).
 */

interface WalRow {
  relation: string;
  records: number;
  bytes: number;
  fpi: number;
}

const RELFILE = /rel \d+\/(\d+)\/(\d+)/;

async function walBetween(client: pg.Client, start: string, end: string): Promise<WalRow[]> {
  const dbOid = String((await client.query('SELECT oid FROM pg_database WHERE datname = current_database()')).rows[0].oid);
  const names = new Map<string, string>();
  const rels = await client.query(
    `SELECT c.relfilenode::text AS node, COALESCE(p.relname || ' (toast' || CASE WHEN c.relkind = 'i' THEN ' index' ELSE '' END || ')', c.relname) AS name
       FROM pg_class c
       LEFT JOIN pg_class t ON c.relkind = 'i' AND t.relname = regexp_replace(c.relname, '_index$', '') AND t.relnamespace = c.relnamespace
       LEFT JOIN pg_class p ON p.reltoastrelid = COALESCE(t.oid, c.oid)
      WHERE c.relfilenode <> 0`,
  );
  for (const r of rels.rows) names.set(r.node, r.name);
  const { rows } = await client.query(
    `SELECT xid::text AS xid, resource_manager AS rm, record_type AS type, record_length AS len, fpi_length AS fpi, block_ref
       FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)`,
    [start, end],
  );
  const mine = new Set<string>();
  const byRel = new Map<string, WalRow>();
  const add = (relation: string, len: number, fpi: number) => {
    const row = byRel.get(relation) ?? { relation, records: 0, bytes: 0, fpi: 0 };
    row.records++;
    row.bytes += len - fpi;
    row.fpi += fpi;
    byRel.set(relation, row);
  };
  for (const r of rows) {
    const m = RELFILE.exec(r.block_ref ?? '');
    if (!m || m[1] !== dbOid) continue;
    if (r.xid !== '0') mine.add(r.xid);
    add(`${names.get(m[2]!) ?? `relfilenode ${m[2]}`} [${r.rm}]`, Number(r.len), Number(r.fpi));
  }
  for (const r of rows) {
    if (RELFILE.test(r.block_ref ?? '') || !mine.has(r.xid)) continue;
    add(`(${r.rm} ${r.type})`, Number(r.len), Number(r.fpi));
  }
  return [...byRel.values()].sort((a, b) => b.bytes + b.fpi - (a.bytes + a.fpi));
}

/** Measures `edits` runs; returns the WAL bytes per edit without full-page images. */
async function measure(client: pg.Client, label: string, edits: number, run: () => Promise<void>): Promise<number> {
  await client.query('CHECKPOINT');
  const start = String((await client.query('SELECT pg_current_wal_lsn()::text AS l')).rows[0].l);
  for (let i = 0; i < edits; i++) await run();
  const end = String((await client.query('SELECT pg_current_wal_lsn()::text AS l')).rows[0].l);
  const rows = await walBetween(client, start, end);
  const per = (n: number) => (n / edits).toFixed(0);
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  const fpi = rows.reduce((s, r) => s + r.fpi, 0);
  table(
    `${label}: WAL per edit over ${edits} edits (bytes; full-page images apart, after a CHECKPOINT)`,
    ['relation [resource manager]', 'records / edit', 'bytes / edit', 'FPI bytes / edit'],
    [...rows.map((r) => [r.relation, (r.records / edits).toFixed(2), per(r.bytes), per(r.fpi)]), ['total', '', per(total), per(fpi)]],
  );
  console.log(`${label}: ${(total / edits / 1024).toFixed(2)} KB per edit without full-page images, ${((total + fpi) / edits / 1024).toFixed(2)} KB with`);
  return total / edits;
}

/** Average stored bytes per column of the rows an acceptance writes (BENCH_WAL_COLUMNS=1). */
async function columnSizes(client: pg.Client): Promise<void> {
  for (const t of ['events', 'attempts', 'ledger', 'targets']) {
    const cols = (await client.query(`SELECT attname FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`, [t])).rows;
    const sizes = cols.map((c) => `avg(pg_column_size(${c.attname}))::int AS ${c.attname}`).join(', ');
    const { rows } = await client.query(`SELECT ${sizes}, avg(pg_column_size(t.*))::int AS whole_row FROM ${t} t`);
    console.log(`${t}: ${JSON.stringify(rows[0])}`);
  }
  const e = await client.query(`SELECT data::text FROM events WHERE event_type = 'ProposalAccepted' ORDER BY global_position DESC LIMIT 1`);
  console.log(`a ProposalAccepted event: ${e.rows[0]?.data}`);
}

async function main(): Promise<void> {
  const deployed = asDeployed();
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    console.error('wal-breakdown: set DATABASE_URL to a PostgreSQL server with pg_walinspect (a fresh database is created and dropped).');
    process.exit(2);
  }
  const edits = Math.round(envNumber('BENCH_WAL_EDITS', 200));
  const content = documentOf(Math.round(envNumber('BENCH_WAL_BYTES', 1024)));
  const bench = await createBenchDatabase(adminUrl);
  const db = await openPostgresDb({ ...benchGuard('postgres'), connectionString: bench.url, poolMax: 2 });
  const pool = new pg.Pool({ connectionString: bench.url, max: 2 });
  const client = new pg.Client({ connectionString: bench.url });
  try {
    console.log(`wal-breakdown: ${deployed}, ${content.length}-byte document`);
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
    await migrate(db);
    const ctx = appContext(db);
    const [id] = await createTargets(ctx, 1, content);
    let v = 0;
    for (let i = 0; i < 20; i++) v = (await submit(ctx, id!, v)).version;
    const ours = await measure(client, 'dispatch()', edits, async () => {
      const r = await submit(ctx, id!, v);
      if (r.status !== 'accepted') throw new Error(`unexpected answer: ${JSON.stringify(r).slice(0, 400)}`);
      v = r.version;
    });
    if (process.env.BENCH_WAL_COLUMNS) await columnSizes(client);
    await rawSetup(pool, 1, content);
    for (let i = 0; i < 20; i++) await rawEdit(pool, 1);
    const raw = await measure(client, 'raw SQL', edits, async () => void (await rawEdit(pool, 1)));
    console.log(`\nWAL per accepted edit, without full-page images: ${ours.toFixed(0)} B against raw SQL's ${raw.toFixed(0)} B, ${(ours / raw).toFixed(2)}× (aim ≤ 3×)`);
  } finally {
    await client.end().catch(() => undefined);
    await pool.end();
    await db.close();
    await bench.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
