import { checkResultsOfVersion } from '@palimpsest/projections/candidates/candidate-checks.queries';
import type { Sql } from '@palimpsest/store/db';
import { checkView } from '../check-run/check-plan';

export type CheckView = ReturnType<typeof checkView>;

/** The latest result of each check recorded on one candidate version, as answers show it. */
export async function checksOfVersion(sql: Sql, candidateId: string, version: number): Promise<CheckView[]> {
  return (await checkResultsOfVersion(sql, candidateId, version)).map(checkView);
}
