import type { Sql } from '@palimpsest/store/db';

/**
 * The accepted attempts of a target (or of every workspace-bound target) with the effects their events
 * recorded, in log order: what history answers (changes since, relocate, undo, rebase) walk through.
 * `effects` is null for an acceptance recorded before effects were (schema version 1): the caller folds
 * the stream to derive them.
 */
export interface AcceptedEffectsRow {
  attempt_id: string;
  target_id: string;
  path: string | null;
  log_sequence: number;
  before_version: number;
  after_version: number;
  before_hash: string;
  after_hash: string;
  source: string;
  intent: string | null;
  protocol_version: string | null;
  created_at: string;
  effects: { start: number; end: number; inserted: string }[] | null;
}

const COLUMNS = `a.attempt_id::text AS attempt_id, a.target_id::text AS target_id, w.path, a.log_sequence,
  a.before_version, a.after_version, e.data->>'before_hash' AS before_hash, e.data->>'after_hash' AS after_hash, a.source, a.intent, a.protocol_version,
  to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  CASE WHEN e.schema_version >= 2 THEN e.data->'effects' END AS effects`;

/** One target's acceptances after `afterVersion` (or after global position `afterPosition`), oldest first, at most `limit`. */
export async function acceptedEffectsOfTarget(
  sql: Sql,
  targetId: string,
  from: { afterVersion: number | null; afterPosition: number | null; toVersion?: number | null },
  limit: number,
): Promise<AcceptedEffectsRow[]> {
  const { rows } = await sql.query<AcceptedEffectsRow>(
    `SELECT ${COLUMNS}
       FROM attempts a JOIN events e ON e.global_position = a.log_sequence
       LEFT JOIN workspace_files w ON w.target_id = a.target_id
      WHERE a.target_id = $1 AND a.status = 'accepted'
        AND ($2::bigint IS NULL OR a.after_version > $2::bigint)
        AND ($3::bigint IS NULL OR a.log_sequence > $3::bigint)
        AND ($5::bigint IS NULL OR a.after_version <= $5::bigint)
      ORDER BY a.log_sequence
      LIMIT $4::bigint`,
    [targetId, from.afterVersion, from.afterPosition, limit, from.toVersion ?? null],
  );
  return rows;
}

/** The acceptances of every target bound to a workspace file after global position `afterPosition`, in log order. */
export async function acceptedEffectsOfWorkspace(sql: Sql, afterPosition: number, limit: number): Promise<AcceptedEffectsRow[]> {
  const { rows } = await sql.query<AcceptedEffectsRow>(
    `SELECT ${COLUMNS}
       FROM attempts a JOIN events e ON e.global_position = a.log_sequence
       JOIN workspace_files w ON w.target_id = a.target_id
      WHERE a.status = 'accepted' AND a.log_sequence > $1::bigint
      ORDER BY a.log_sequence
      LIMIT $2::bigint`,
    [afterPosition, limit],
  );
  return rows;
}

/** One accepted attempt with its effects, its record (canonical JSON) and per-change facts, or null when no acceptance has that id. */
export async function acceptedEffectsOf(sql: Sql, attemptId: string): Promise<(AcceptedEffectsRow & { content: string; change_facts: unknown }) | null> {
  const { rows } = await sql.query<AcceptedEffectsRow & { content: string; change_facts: unknown }>(
    `SELECT ${COLUMNS}, e.data->>'content' AS content, e.data->'change_facts' AS change_facts
       FROM attempts a JOIN events e ON e.global_position = a.log_sequence
       LEFT JOIN workspace_files w ON w.target_id = a.target_id
      WHERE a.attempt_id = $1 AND a.status = 'accepted'`,
    [attemptId],
  );
  return rows[0] ?? null;
}
