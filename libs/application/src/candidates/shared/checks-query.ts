import type { CheckRecordedData } from '@palimpsest/core/candidate/candidate.events';
import type { Sql } from '@palimpsest/store/db';
import { checkView } from '../check-run/check-plan';

/** The latest result of each check recorded on one candidate version (the candidate_checks read model). */
export async function checksOfVersion(sql: Sql, candidateId: string, version: number): Promise<Record<string, unknown>[]> {
  const { rows } = await sql.query<{ result: CheckRecordedData }>(
    'SELECT result FROM candidate_checks WHERE candidate_id = $1 AND candidate_version = $2 ORDER BY check_name',
    [candidateId, version],
  );
  return rows.map((r) => checkView(r.result));
}
