import type { Sql } from '@palimpsest/store/db';
import { SqlParams } from '../../sql-params';

/** Reads of the `activity` read model (written by activity.projection.ts). */

export type ActivityGranularity = 'minute' | 'hour' | 'day';

export interface ActivityWindow {
  /** Null: every target. */
  targetId: string | null;
  /** Whole minutes: buckets at or after `since` and before `until` (ISO instants on minute boundaries). */
  since: string;
  until: string;
}

export interface ActivityGroupRow {
  status: 'accepted' | 'rejected';
  source: string;
  /** '' for acceptances. */
  failure_reason: string;
  attempts: number;
  retries: number;
}

export interface ActivitySeriesRow {
  bucket: Date;
  status: 'accepted' | 'rejected';
  attempts: number;
  retries: number;
}

function windowWhere(p: SqlParams, w: ActivityWindow): string {
  const where = [`bucket >= ${p.add(w.since)}::timestamptz`, `bucket < ${p.add(w.until)}::timestamptz`];
  if (w.targetId !== null) where.push(`target_id = ${p.add(w.targetId)}::uuid`);
  return where.join(' AND ');
}

/** The window's attempts summed by status, source and failure reason. */
export async function activityGroups(sql: Sql, w: ActivityWindow): Promise<ActivityGroupRow[]> {
  const p = new SqlParams();
  const { rows } = await sql.query<ActivityGroupRow>(
    `SELECT status, source, failure_reason, sum(attempts)::bigint AS attempts, sum(retries)::bigint AS retries
       FROM activity_minutes WHERE ${windowWhere(p, w)}
      GROUP BY status, source, failure_reason
      ORDER BY status, source, failure_reason`,
    p.values,
  );
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), retries: Number(r.retries) }));
}

/** The window's attempts per status in buckets of `granularity` (UTC), oldest first; empty buckets are absent. */
export async function activitySeries(sql: Sql, w: ActivityWindow, granularity: ActivityGranularity): Promise<ActivitySeriesRow[]> {
  const p = new SqlParams();
  const where = windowWhere(p, w);
  const unit = p.add(granularity);
  const { rows } = await sql.query<ActivitySeriesRow>(
    `SELECT date_trunc(${unit}::text, bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS bucket, status,
            sum(attempts)::bigint AS attempts, sum(retries)::bigint AS retries
       FROM activity_minutes WHERE ${where}
      GROUP BY 1, status ORDER BY 1, status`,
    p.values,
  );
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), retries: Number(r.retries) }));
}

/** Everything counted so far over all targets (what /metrics exports). */
export async function activityTotals(sql: Sql): Promise<ActivityGroupRow[]> {
  const { rows } = await sql.query<ActivityGroupRow>(
    `SELECT status, source, failure_reason, attempts, retries FROM activity_totals ORDER BY status, source, failure_reason`,
  );
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), retries: Number(r.retries) }));
}
