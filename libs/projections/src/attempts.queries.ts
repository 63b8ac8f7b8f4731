import type { Sql } from '@palimpsest/store/db';
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
    `SELECT attempt_id::text AS attempt_id, log_sequence, status, protocol_version, runtime_version, content_hash,
            content_bytes, request_fingerprint, client_request_id, expected_target_version, expected_current_hash,
            before_version, after_version, before_hash, after_hash, failure_reason, failure_detail, failed_change_id,
            validation_stage, parent_attempt_id::text AS parent_attempt_id, regeneration_attempt, source, diagnostic,
            left(intent, ${intentChars}::int) AS intent, editing_cycle_id::text AS editing_cycle_id, created_at
       FROM attempts WHERE ${where.join(' AND ')}
      ORDER BY log_sequence DESC LIMIT ${p.add(page.rows)}`,
    p.values,
  );
  return rows;
}

/** The submitted content of attempts, by log sequence: it stays in the event, not in the attempts row. */
export async function attemptContents(sql: Sql, logSequences: number[]): Promise<Map<number, string>> {
  const { rows } = await sql.query<{ global_position: number; content: string }>(
    `SELECT global_position, data->>'content' AS content FROM events WHERE global_position = ANY($1::bigint[])`,
    [logSequences],
  );
  return new Map(rows.map((r) => [Number(r.global_position), r.content]));
}
