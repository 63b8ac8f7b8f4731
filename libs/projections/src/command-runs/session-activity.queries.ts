import type { Sql } from '@palimpsest/store/db';

/**
 * What one client session did, in log order: the edits its file tools recorded and its command runs
 * (request, approval, start, exit…), all carrying the session's correlation id in their metadata. An
 * auditor reads "edited src/a.ts, ran npm test, exit 1, edited again" off it.
 */
export interface SessionActivityRow {
  global_position: string;
  stream_id: string;
  event_type: string;
  tool: string | null;
  recorded_at: Date;
  data: Record<string, unknown>;
}

export async function sessionActivity(sql: Sql, correlationId: string, limit = 500): Promise<SessionActivityRow[]> {
  const { rows } = await sql.query<SessionActivityRow>(
    `SELECT e.global_position::text AS global_position, e.stream_id, e.event_type, e.metadata->>'tool' AS tool, e.recorded_at, e.data
       FROM events e WHERE e.metadata->>'correlation_id' = $1 ORDER BY e.global_position LIMIT $2`,
    [correlationId, Math.min(Math.max(limit, 1), 5_000)],
  );
  return rows;
}
