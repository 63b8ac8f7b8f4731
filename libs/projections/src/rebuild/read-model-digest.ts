import type { Sql } from '@palimpsest/store/db';
import { ASSEMBLED_CONTENT } from '../content/target-content';
import { candidateDigests } from '../candidates/candidate-digest';
import { publicationDigests } from '../publications/publication.queries';

/**
 * One digest per target over every inline read model row it owns, in a deterministic order
 * (and one per candidate, keyed `candidate:<id>`, over the candidate read models, and one per publication journal, keyed `publication:<id>`).
 * The text enters as assembled content, so two chunk layouts of the same text digest the same.
 * Two states of the read models are equal exactly when their digests are.
 */
export async function readModelDigests(sql: Sql): Promise<Map<string, string>> {
  const { rows } = await sql.query(`
    SELECT t.target_id::text AS target_id, md5(concat_ws('#',
      row_to_json(t)::text,
      ${ASSEMBLED_CONTENT('t.target_id')},
      (SELECT string_agg(row_to_json(a)::text, '|' ORDER BY a.log_sequence) FROM attempts a WHERE a.target_id = t.target_id),
      (SELECT string_agg(row_to_json(l)::text, '|' ORDER BY l.ledger_sequence) FROM ledger l WHERE l.target_id = t.target_id),
      (SELECT string_agg(row_to_json(s)::text, '|' ORDER BY s.log_sequence) FROM target_snapshots s WHERE s.target_id = t.target_id),
      (SELECT row_to_json(w)::text FROM workspace_files w WHERE w.target_id = t.target_id),
      (SELECT string_agg(row_to_json(o)::text, '|' ORDER BY o.observation_id) FROM scope_observations o WHERE o.target_id = t.target_id),
      (SELECT string_agg(row_to_json(b)::text, '|' ORDER BY b.bundle_id) FROM observation_bundles b WHERE b.target_id = t.target_id)
    )) AS digest
    FROM targets t`);
  const digests = new Map(rows.map((r: any) => [r.target_id as string, r.digest as string]));
  for (const [key, digest] of await candidateDigests(sql)) digests.set(key, digest);
  for (const [key, digest] of await publicationDigests(sql)) digests.set(key, digest);
  return digests;
}

export interface DigestComparison {
  equal: boolean;
  compared: number;
  differing: string[];
  missing: string[];
  extra: string[];
}

export function compareDigests(before: Map<string, string>, after: Map<string, string>): DigestComparison {
  const differing: string[] = [];
  const missing: string[] = [];
  for (const [id, digest] of before) {
    if (!after.has(id)) missing.push(id);
    else if (after.get(id) !== digest) differing.push(id);
  }
  const extra = [...after.keys()].filter((id) => !before.has(id));
  return {
    equal: differing.length + missing.length + extra.length === 0,
    compared: before.size,
    differing,
    missing,
    extra,
  };
}
