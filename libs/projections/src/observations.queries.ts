import type { Sql } from '@palimpsest/store/db';

/** One scope_observations row: what paging and (later) observed submission check against the target. */
export interface ObservationRow {
  observation_id: string;
  target_id: string;
  editing_cycle_id: string;
  target_version: number;
  target_hash: string;
  language: string;
  engine: string;
  /** What the selection asked for (an observe-again offer resends it). */
  selector_name: string;
  selector_kind: string | null;
  symbol_name: string;
  symbol_kind: string;
  symbol_parent: string | null;
  scope_start: number;
  scope_end: number;
  observed_scope_hash: string;
  bundle_id: string | null;
  ordinal: number | null;
  consumed_attempt_id: string | null;
}

const COLUMNS = `observation_id::text AS observation_id, target_id::text AS target_id, editing_cycle_id::text AS editing_cycle_id,
  target_version::integer AS target_version, target_hash, language, engine, selector_name, selector_kind, symbol_name, symbol_kind, symbol_parent,
  scope_start, scope_end, observed_scope_hash, bundle_id::text AS bundle_id, ordinal, consumed_attempt_id::text AS consumed_attempt_id`;

export async function findObservation(sql: Sql, observationId: string): Promise<ObservationRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM scope_observations WHERE observation_id = $1`, [observationId]);
  return (rows[0] as ObservationRow | undefined) ?? null;
}

/** A bundle's observations in ordinal order ([] for an unknown bundle). */
export async function bundleObservations(sql: Sql, bundleId: string): Promise<ObservationRow[]> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM scope_observations WHERE bundle_id = $1 ORDER BY ordinal`, [bundleId]);
  return rows as ObservationRow[];
}

/** The observations of these ids (lowercase UUIDs) that exist, whichever bundle they belong to. */
export async function findObservations(sql: Sql, observationIds: readonly string[]): Promise<ObservationRow[]> {
  if (!observationIds.length) return [];
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM scope_observations WHERE observation_id = ANY($1::uuid[])`, [observationIds]);
  return rows as ObservationRow[];
}
