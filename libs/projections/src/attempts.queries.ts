import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere } from '@palimpsest/store/stored-event';
import { SqlParams } from './sql-params';

/** Reads of the attempts read model (written by attempts.projection.ts) and of the records it points to. */

export interface AttemptLogRow {
  attempt_id: string;
  log_sequence: number;
  status: 'accepted' | 'rejected';
  protocol_version: string | null;
  runtime_version: string | null;
  content_hash: string;
  content_bytes: number;
  request_fingerprint: string;
  client_request_id: string | null;
  expected_target_version: number | null;
  expected_current_hash: string | null;
  before_version: number;
  after_version: number | null;
  before_hash: string;
  after_hash: string | null;
  failure_reason: string | null;
  failure_detail: string | null;
  failed_change_id: string | null;
  validation_stage: string | null;
  parent_attempt_id: string | null;
  regeneration_attempt: number | null;
  source: string;
  /** A rejection's diagnostic, or an acceptance's warnings (null without any). */
  diagnostic: Record<string, unknown> | null;
  /** At most `intentChars` code points of the stored intent. */
  intent: string | null;
  editing_cycle_id: string;
  created_at: Date;
}

export interface AttemptFilter {
  beforeSequence?: number | null;
  status?: 'accepted' | 'rejected' | null;
  contentHash?: string | null;
  clientRequestId?: string | null;
}

export async function targetExists(sql: Sql, targetId: string): Promise<boolean> {
  const { rows } = await sql.query('SELECT 1 FROM targets WHERE target_id = $1', [targetId]);
  return rows.length > 0;
}

/** A target's attempts, newest first, after every filter: at most `rows` of them. */
export async function attemptLogRows(
  sql: Sql,
  targetId: string,
  filter: AttemptFilter,
  page: { rows: number; intentChars: number },
): Promise<AttemptLogRow[]> {
  const p = new SqlParams();
  const where = [`target_id = ${p.add(targetId)}`];
  if (filter.beforeSequence != null) where.push(`log_sequence < ${p.add(filter.beforeSequence)}`);
  if (filter.status != null) where.push(`status = ${p.add(filter.status)}`);
  if (filter.contentHash != null) where.push(`content_hash = ${p.add(filter.contentHash)}`);
  if (filter.clientRequestId != null) where.push(`client_request_id = ${p.add(filter.clientRequestId)}`);
  const intentChars = p.add(page.intentChars);
  const { rows } = await sql.query<AttemptLogRow>(
    `SELECT a.attempt_id::text AS attempt_id, a.log_sequence, a.status, a.protocol_version, a.runtime_version, a.content_hash,
            a.content_bytes, e.data->>'request_fingerprint' AS request_fingerprint, a.client_request_id,
            a.expected_target_version, e.data->>'expected_current_hash' AS expected_current_hash, a.before_version,
            a.after_version, e.data->>'before_hash' AS before_hash, e.data->>'after_hash' AS after_hash, a.failure_reason,
            a.failure_detail, a.failed_change_id, a.validation_stage, a.parent_attempt_id::text AS parent_attempt_id,
            a.regeneration_attempt, a.source, a.diagnostic, left(a.intent, ${intentChars}::int) AS intent,
            a.editing_cycle_id::text AS editing_cycle_id, a.created_at
       FROM (SELECT * FROM attempts WHERE ${where.join(' AND ')} ORDER BY log_sequence DESC LIMIT ${p.add(page.rows)}) a
       CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e
      ORDER BY a.log_sequence DESC`,
    p.values,
  );
  return rows;
}

/** The submitted content of attempts, by log sequence: it stays in the event, not in the attempts row. */
export async function attemptContents(sql: Sql, logSequences: number[]): Promise<Map<number, string>> {
  const { rows } = await sql.query<{ global_position: number; content: string }>(
    `SELECT global_position, data->>'content' AS content FROM ${everyEventWhere('global_position = ANY($1::bigint[])')} e`,
    [logSequences],
  );
  return new Map(rows.map((r) => [Number(r.global_position), r.content]));
}
