import type { Sql } from '@palimpsest/store/db';
import type { AsyncProjection } from '../../async/async-projection.port';
import { ident } from './shadow-schema';

/**
 * One digest per table of an asynchronous read model (keyed `<projection>:<table>`), over its rows in
 * a deterministic order, as the tables on the search_path hold them. The inline models have their
 * per-target digests (read-model-digest.ts); an asynchronous model's rows are its own to shape, so they
 * are compared whole: every column is a function of the log up to the checkpoint.
 */
export async function tableDigests(sql: Sql, projection: AsyncProjection): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  for (const table of projection.tables) {
    const { rows } = await sql.query<{ digest: string }>(
      `SELECT md5(COALESCE(string_agg(r.j, '|' ORDER BY r.j), '')) AS digest
         FROM (SELECT row_to_json(t)::text AS j FROM ${ident(table)} t) r`,
    );
    digests.set(`${projection.name}:${table}`, rows[0]!.digest);
  }
  return digests;
}
