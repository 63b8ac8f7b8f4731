import type { Sql } from '@palimpsest/store/db';

/** One digest per candidate over every candidate read-model row it owns, keyed `candidate:<id>`. */
export async function candidateDigests(sql: Sql): Promise<Map<string, string>> {
  const { rows } = await sql.query<{ key: string; digest: string }>(`
    SELECT 'candidate:' || c.candidate_id::text AS key, md5(concat_ws('#',
      row_to_json(c)::text,
      (SELECT string_agg(row_to_json(t)::text, '|' ORDER BY t.target_id) FROM candidate_targets t WHERE t.candidate_id = c.candidate_id),
      (SELECT string_agg(row_to_json(k)::text, '|' ORDER BY k.candidate_version, k.check_name) FROM candidate_checks k WHERE k.candidate_id = c.candidate_id),
      (SELECT string_agg(row_to_json(r)::text, '|' ORDER BY r.request_id) FROM candidate_requests r WHERE r.candidate_id = c.candidate_id),
      (SELECT string_agg(row_to_json(a)::text, '|' ORDER BY a.approval_id) FROM approvals a WHERE a.candidate_id = c.candidate_id)
    )) AS digest
    FROM candidates c`);
  return new Map(rows.map((r) => [r.key, r.digest]));
}
