import type { Sql } from '@palimpsest/store/db';

/**
 * The shadow a read model is rebuilt into: a schema of its own holding a copy of each live table's
 * shape (columns, defaults, CHECK constraints, storage) with every index and key under the live name,
 * so that moving the tables into public later leaves the schema exactly as the migrations made it.
 * The projection code writes unqualified names; with the shadow first on the search_path they land here.
 */

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** A name that needs no quoting (every read model table, schema and index name here is one). */
export function ident(name: string): string {
  if (!IDENTIFIER.test(name)) throw new TypeError(`not a plain SQL identifier: ${JSON.stringify(name)}`);
  return name;
}

/** The shadow schema of one rebuild name (`inline` → palimpsest_rebuild_inline). */
export function shadowSchemaOf(name: string): string {
  return ident(`palimpsest_rebuild_${name.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`);
}

/** Statements that run against the shadow's tables first, anything else (events, checkpoints) in public. */
export async function useShadow(tx: Sql, schema: string): Promise<void> {
  await tx.query(`SET LOCAL search_path = ${ident(schema)}, public`);
}

export async function useLive(tx: Sql): Promise<void> {
  await tx.query(`SET LOCAL search_path = public`);
}

/** A fresh, empty shadow of `tables` (a previous, unfinished rebuild's shadow is dropped). */
export async function createShadow(tx: Sql, schema: string, tables: readonly string[]): Promise<void> {
  await tx.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
  await tx.query(`CREATE SCHEMA ${ident(schema)}`);
  for (const table of tables) {
    const t = ident(table);
    await tx.query(`CREATE TABLE ${schema}.${t} (LIKE public.${t} INCLUDING ALL EXCLUDING INDEXES)`);
    for (const c of await keyConstraints(tx, t)) {
      await tx.query(`ALTER TABLE ${schema}.${t} ADD CONSTRAINT ${ident(c.name)} ${c.definition}`);
    }
    for (const definition of await plainIndexes(tx, t)) {
      const live = ` ON public.${t} USING `;
      if (!definition.includes(live)) throw new Error(`unexpected index definition on ${t}: ${definition}`);
      await tx.query(definition.replace(live, ` ON ${schema}.${t} USING `));
    }
  }
}

/** Primary keys, unique and exclusion constraints: their indexes are made by ADD CONSTRAINT, named as live. */
async function keyConstraints(tx: Sql, table: string): Promise<{ name: string; definition: string }[]> {
  const { rows } = await tx.query<{ name: string; definition: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
      WHERE conrelid = ('public.' || $1)::regclass AND contype IN ('p', 'u', 'x') ORDER BY conname`,
    [table],
  );
  return rows;
}

/** Every other index, as CREATE INDEX statements naming the live table. */
async function plainIndexes(tx: Sql, table: string): Promise<string[]> {
  const { rows } = await tx.query<{ definition: string }>(
    `SELECT pg_get_indexdef(i.indexrelid) AS definition FROM pg_index i
      WHERE i.indrelid = ('public.' || $1)::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid)
      ORDER BY i.indexrelid`,
    [table],
  );
  return rows.map((r) => r.definition);
}

/**
 * Moves the shadow's tables into public in place of the live ones, which are dropped. The caller holds
 * ACCESS EXCLUSIVE locks on the live tables; a statement queued behind them resolves the names again
 * once it gets its lock, and so reaches the new tables (PostgreSQL re-resolves a relation name after
 * waiting on a lock when invalidations arrived meanwhile, and replans cached plans on those tables).
 */
export async function swapIntoPublic(tx: Sql, schema: string, tables: readonly string[]): Promise<void> {
  const retired = ident(`${schema}_retired`);
  await tx.query(`DROP SCHEMA IF EXISTS ${retired} CASCADE`);
  await tx.query(`CREATE SCHEMA ${retired}`);
  for (const table of tables) {
    const t = ident(table);
    await tx.query(`ALTER TABLE public.${t} SET SCHEMA ${retired}`);
    await tx.query(`ALTER TABLE ${schema}.${t} SET SCHEMA public`);
  }
  await tx.query(`DROP SCHEMA ${retired} CASCADE`);
  await tx.query(`DROP SCHEMA ${ident(schema)} CASCADE`);
}

export async function dropShadow(tx: Sql, schema: string): Promise<void> {
  await tx.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
}

/** Locks the live tables against readers and writers (the caller's transaction holds them to its end). */
export async function lockLive(tx: Sql, tables: readonly string[]): Promise<void> {
  await tx.query(`LOCK TABLE ${tables.map((t) => `public.${ident(t)}`).join(', ')} IN ACCESS EXCLUSIVE MODE`);
}
