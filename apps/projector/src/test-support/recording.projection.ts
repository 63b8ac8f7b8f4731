import type { AsyncProjection } from '@palimpsest/projections/async/async-projection.port';
import type { Sql } from '@palimpsest/store/db';

/**
 * A test projection (the real read models are the registry's): it records (stream_id, stream_version,
 * global_position) of every event it is handed, in the order handed (seq), into `table`, with no
 * uniqueness, so a skipped event is a missing row and a duplicate a second one.
 */
export function recordingProjection(name: string, table: string): AsyncProjection {
  return {
    name,
    version: 1,
    tables: [table],
    async apply(tx, events) {
      await tx.query(
        `INSERT INTO ${table} (stream_id, stream_version, global_position)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])`,
        [events.map((e) => e.streamId), events.map((e) => e.streamVersion), events.map((e) => e.globalPosition)],
      );
    },
  };
}

export async function createRecordingTable(sql: Sql, table: string): Promise<void> {
  await sql.query(
    `CREATE TABLE IF NOT EXISTS ${table} (seq bigserial PRIMARY KEY, stream_id text NOT NULL, stream_version bigint NOT NULL, global_position bigint NOT NULL)`,
  );
}

export interface LogAudit {
  events: number;
  recorded: number;
  /** Committed events the projection never recorded. */
  skipped: number[];
  /** Positions recorded more than once. */
  duplicated: number[];
  /** Streams whose versions were not recorded 1, 2, 3… in order. */
  outOfOrder: string[];
}

/** Compares what the projection recorded with the events table (call once every writer has committed). */
export async function auditRecording(sql: Sql, table: string): Promise<LogAudit> {
  const events = await sql.query<{ p: number }>(`SELECT global_position AS p FROM events ORDER BY 1`);
  const recorded = await sql.query<{ s: string; v: number; p: number }>(`SELECT stream_id AS s, stream_version AS v, global_position AS p FROM ${table} ORDER BY seq`);
  const seen = new Map<number, number>();
  for (const row of recorded.rows) seen.set(Number(row.p), (seen.get(Number(row.p)) ?? 0) + 1);
  const lastVersion = new Map<string, number>();
  const outOfOrder = new Set<string>();
  for (const row of recorded.rows) {
    const previous = lastVersion.get(row.s) ?? 0;
    if (Number(row.v) !== previous + 1) outOfOrder.add(row.s);
    lastVersion.set(row.s, Number(row.v));
  }
  return {
    events: events.rows.length,
    recorded: recorded.rows.length,
    skipped: events.rows.map((r) => Number(r.p)).filter((p) => !seen.has(p)),
    duplicated: [...seen].filter(([, n]) => n > 1).map(([p]) => p),
    outOfOrder: [...outOfOrder],
  };
}
