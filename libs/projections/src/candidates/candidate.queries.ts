import type { RequestRecord } from '@palimpsest/core/candidate/candidate.commands';
import { upcastCandidateEvent, type CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere } from '@palimpsest/store/stored-event';

/** The candidate read models (candidate.projection.ts) as the candidate's writers read and lock them. */

/** Serializes requests that carry the same request_id (a new candidate has no row to lock yet). */
export async function lockRequestId(tx: Sql, requestId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('palimpsest:candidate-request:' || $1, 0))`, [requestId]);
}

export async function findRequest(sql: Sql, requestId: string): Promise<RequestRecord | null> {
  const { rows } = await sql.query<RequestRecord>(
    `SELECT request_id, operation, input_fingerprint, candidate_id::text AS candidate_id, candidate_version, log_sequence
       FROM candidate_requests WHERE request_id = $1`,
    [requestId],
  );
  return rows[0] ?? null;
}

/** True when the candidate exists; it is then locked until the transaction ends. */
export async function lockCandidateRow(tx: Sql, candidateId: string): Promise<boolean> {
  const { rows } = await tx.query('SELECT 1 FROM candidates WHERE candidate_id = $1 FOR UPDATE', [candidateId]);
  return rows.length > 0;
}

/** The event recorded at a global position (the answer a replayed request_id gets). */
export async function eventAt(sql: Sql, position: number): Promise<CandidateEvent | null> {
  const { rows } = await sql.query(
    `SELECT event_type, schema_version, data FROM ${everyEventWhere('global_position = $1')} e`,
    [position],
  );
  return rows.length ? upcastCandidateEvent(rows[0].event_type, rows[0].schema_version, rows[0].data) : null;
}
