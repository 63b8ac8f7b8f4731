import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere } from '@palimpsest/store/stored-event';

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
       FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e
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
       FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e
       JOIN workspace_files w ON w.target_id = a.target_id
      WHERE a.status = 'accepted' AND a.log_sequence > $1::bigint
      ORDER BY a.log_sequence
      LIMIT $2::bigint`,
    [afterPosition, limit],
  );
  return rows;
}

/** What a step of history needs to carry a range or an undo through it (see EffectStepRow). */
export interface EffectStepRow {
  attempt_id: string;
  target_id: string;
  before_version: number;
  after_version: number;
  before_hash: string;
  protocol_version: string | null;
  effects: { start: number; end: number; inserted: string }[] | null;
}

const STEP_COLUMNS = `a.attempt_id::text AS attempt_id, a.target_id::text AS target_id, a.before_version, a.after_version,
  e.data->>'before_hash' AS before_hash, a.protocol_version, CASE WHEN e.schema_version >= 2 THEN e.data->'effects' END AS effects`;

/**
 * One target's acceptances after `afterVersion` up to `toVersion`, oldest first, at most `limit`: the
 * columns a rebase walks through and nothing else (no path, no formatted time), by the index on
 * (target_id, after_version) of accepted attempts.
 */
export async function effectStepsBetween(sql: Sql, targetId: string, afterVersion: number, toVersion: number, limit: number): Promise<EffectStepRow[]> {
  const { rows } = await sql.query<EffectStepRow>(
    `SELECT ${STEP_COLUMNS}
       FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e
      WHERE a.target_id = $1 AND a.status = 'accepted' AND a.after_version > $2::bigint AND a.after_version <= $3::bigint
      ORDER BY a.after_version
      LIMIT $4::bigint`,
    [targetId, afterVersion, toVersion, limit],
  );
  return rows;
}

/** An accepted attempt as an undo reads it: its step, its record (canonical JSON) and per-change facts. */
export type UndoableAttemptRow = EffectStepRow & { content: string; change_facts: unknown };

/**
 * One accepted attempt, with the acceptances of its target after it (at most `limit`, oldest first), in
 * one statement: what an undo needs to invert it and carry the inverse to the head. Null when no
 * acceptance has that id. One index range from the attempt's own version (the attempt is its first row),
 * which plans and runs in about half the time of a lookup joined to a range.
 */
export async function acceptedAttemptAndLater(sql: Sql, attemptId: string, limit: number): Promise<{ attempt: UndoableAttemptRow; later: EffectStepRow[] } | null> {
  const { rows } = await sql.query<UndoableAttemptRow>(
    `SELECT ${STEP_COLUMNS}, e.data->>'content' AS content, e.data->'change_facts' AS change_facts
       FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e
      WHERE a.target_id = (SELECT target_id FROM attempts WHERE attempt_id = $1) AND a.status = 'accepted'
        AND a.after_version >= (SELECT after_version FROM attempts WHERE attempt_id = $1)
      ORDER BY a.after_version
      LIMIT $2::bigint + 1`,
    [attemptId, limit],
  );
  const [attempt, ...later] = rows;
  if (!attempt || attempt.attempt_id !== attemptId) return null;
  return { attempt, later: later.map(({ content: _content, change_facts: _facts, ...step }) => step) };
}
