import type { Sql } from '@palimpsest/store/db';

/** The candidate whose apply wrote `version` of a target, if a candidate did (else a direct submission did). */
export async function candidateThatWrote(sql: Sql, targetId: string, version: number): Promise<string | null> {
  const { rows } = await sql.query<{ candidate_id: string }>(
    'SELECT candidate_id::text AS candidate_id FROM candidate_targets WHERE target_id = $1 AND result_version = $2',
    [targetId, version],
  );
  return rows[0]?.candidate_id ?? null;
}
