import type { CheckRecordedData } from '@palimpsest/core/candidate/candidate.events';
import type { Sql } from '@palimpsest/store/db';

/** The latest result of each check recorded on one candidate version (the candidate_checks read model), by check name. */
export async function checkResultsOfVersion(sql: Sql, candidateId: string, version: number): Promise<CheckRecordedData[]> {
  const { rows } = await sql.query<{ result: CheckRecordedData }>(
    'SELECT result FROM candidate_checks WHERE candidate_id = $1 AND candidate_version = $2 ORDER BY check_name',
    [candidateId, version],
  );
  return rows.map((r) => r.result);
}
