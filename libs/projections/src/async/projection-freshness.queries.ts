import type { Sql } from '@palimpsest/store/db';

/** Events behind are counted up to this many (the count stays cheap however far behind a projection is). */
const BEHIND_COUNT_CAP = 100_000;

export interface ProjectionFreshness {
  /** Global position of the last event the projection handled (0: none yet). */
  checkpoint_position: number;
  /** Committed events it has not handled yet, at most BEHIND_COUNT_CAP. */
  behind_by_events: number;
}

/** Where an asynchronous projection stands, for a read to report beside its answer (a read never creates the checkpoint). */
export async function projectionFreshness(sql: Sql, name: string): Promise<ProjectionFreshness> {
  const { rows } = await sql.query<{ position: number; behind: number }>(
    `WITH c AS (
       SELECT COALESCE(max(last_xid::text), '0')::xid8 AS xid, COALESCE(max(last_position), 0) AS position
         FROM projection_checkpoints WHERE projection = $1)
     SELECT c.position,
            (SELECT count(*)::int FROM (SELECT 1 FROM events e
               WHERE (e.transaction_xid, e.global_position) > (c.xid, c.position) LIMIT $2::int) x) AS behind
       FROM c`,
    [name, BEHIND_COUNT_CAP],
  );
  return { checkpoint_position: Number(rows[0]!.position), behind_by_events: Number(rows[0]!.behind) };
}
