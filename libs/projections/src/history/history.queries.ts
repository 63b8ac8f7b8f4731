import type { AsOf } from '@palimpsest/core/history/text-as-of';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere } from '@palimpsest/store/stored-event';

/** One version of a target as the log recorded it: who made it, when, where in the log, and its text's hash. */
export interface VersionPoint {
  version: number;
  after_hash: string;
  log_sequence: number;
  written_at: Date;
  /** The accepted attempt that made it; null for version 0 (the target's creation). */
  attempt_id: string | null;
  source: string | null;
}

/**
 * Every version of a target: its creation (version 0, from the initial snapshot row) and each accepted
 * attempt. One statement, so the points it answers are those of one state of the log.
 */
const VERSIONS = `
  SELECT 0 AS version, s.current_hash AS after_hash, s.log_sequence, s.created_at AS written_at, NULL::text AS attempt_id, NULL::text AS source
    FROM target_snapshots s WHERE s.target_id = $1 AND s.snapshot_reason = 'initial'
  UNION ALL
  SELECT a.after_version::int, e.data->>'after_hash', a.log_sequence, a.created_at, a.attempt_id::text, a.source
    FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e WHERE a.target_id = $1 AND a.status = 'accepted'`;

const POINT_COLUMNS = 'v.version, v.after_hash, v.log_sequence::float8 AS log_sequence, v.written_at, v.attempt_id, v.source';

/** The version an as-of point names: that version, or the last one at or before the position or time; null when there is none. */
export async function versionAt(sql: Sql, targetId: string, asOf: AsOf): Promise<VersionPoint | null> {
  if ('version' in asOf) {
    // A named version is one probe of its own index (the acceptance that made it, or the creation).
    const { rows } = await sql.query<VersionPoint>(
      asOf.version === 0
        ? `SELECT ${POINT_COLUMNS} FROM (SELECT 0 AS version, current_hash AS after_hash, log_sequence, created_at AS written_at, NULL::text AS attempt_id, NULL::text AS source
             FROM target_snapshots WHERE target_id = $1 AND snapshot_reason = 'initial') v`
        : `SELECT ${POINT_COLUMNS} FROM (SELECT a.after_version::int AS version, e.data->>'after_hash' AS after_hash, a.log_sequence, a.created_at AS written_at,
                    a.attempt_id::text AS attempt_id, a.source
             FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e
            WHERE a.target_id = $1 AND a.status = 'accepted' AND a.after_version = $2::bigint) v`,
      asOf.version === 0 ? [targetId] : [targetId, asOf.version],
    );
    return rows[0] ?? null;
  }
  const [where, value] = 'position' in asOf ? ['v.log_sequence <= $2::bigint', asOf.position] : ['v.written_at <= $2::timestamptz', asOf.time];
  const { rows } = await sql.query<VersionPoint>(
    `SELECT ${POINT_COLUMNS} FROM (${VERSIONS}) v WHERE ${where} ORDER BY v.version DESC LIMIT 1`,
    [targetId, value],
  );
  return rows[0] ?? null;
}

/** The newest kept copy of the text at or before `version` (never version 0: that text is the log's first event). */
export async function snapshotAtOrBefore(sql: Sql, targetId: string, version: number): Promise<{ version: number; body: string } | null> {
  const { rows } = await sql.query<{ version: number; body: string }>(
    `SELECT version::int AS version, body FROM history_snapshots WHERE target_id = $1 AND version <= $2::bigint
      ORDER BY version DESC LIMIT 1`,
    [targetId, version],
  );
  return rows[0] ?? null;
}

/** The text the target was created with (its first event). */
export async function initialText(sql: Sql, targetId: string): Promise<string | null> {
  const { rows } = await sql.query<{ content: string }>(
    `SELECT data->>'content' AS content FROM ${everyEventWhere('stream_id = $1 AND stream_version = 1')} e`,
    [targetStreamId(targetId)],
  );
  return rows[0]?.content ?? null;
}

/**
 * An acceptance as the log holds it, for a fold: a version-2 event's effects only, an older one's whole
 * data (its effects are upcast), as JSON text (parsed by the caller: cheaper than the driver's jsonb).
 */
export interface StoredStep {
  version: number;
  after_hash: string;
  schema_version: number;
  payload: string;
}

/** The acceptances that made versions (from, to], in order. */
export async function stepsBetween(sql: Sql, targetId: string, from: number, to: number): Promise<StoredStep[]> {
  const { rows } = await sql.query<StoredStep>(
    `SELECT a.after_version::int AS version, e.data->>'after_hash' AS after_hash, e.schema_version,
            CASE WHEN e.schema_version >= 2 THEN (e.data->'effects')::text ELSE e.data::text END AS payload
       FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e
      WHERE a.target_id = $1 AND a.status = 'accepted' AND a.after_version > $2::bigint AND a.after_version <= $3::bigint
      ORDER BY a.after_version`,
    [targetId, from, to],
  );
  return rows;
}

/** The attempts (accepted or not) recorded after one version was made and up to another, for a diff's account. */
export interface AttemptBetween {
  attempt_id: string;
  status: 'accepted' | 'rejected';
  before_version: number;
  after_version: number | null;
  source: string;
  intent: string | null;
  log_sequence: number;
  created_at: Date;
}

export async function attemptsBetween(sql: Sql, targetId: string, fromSequence: number, toSequence: number, afterSequence: number | null, limit: number): Promise<AttemptBetween[]> {
  const { rows } = await sql.query<AttemptBetween>(
    `SELECT attempt_id::text AS attempt_id, status, before_version::int AS before_version, after_version::int AS after_version,
            source, left(intent, 200) AS intent, log_sequence::float8 AS log_sequence, created_at
       FROM attempts WHERE target_id = $1 AND log_sequence > $2::bigint AND log_sequence <= $3::bigint
        AND ($4::bigint IS NULL OR log_sequence > $4::bigint)
      ORDER BY log_sequence LIMIT $5::int`,
    [targetId, fromSequence, toSequence, afterSequence, limit],
  );
  return rows;
}
