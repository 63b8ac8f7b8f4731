import type { Sql } from '@palimpsest/store/db';

/** Reads of the approvals read model (candidate.projection.ts) with their candidate's state at `now`. */

export type ApprovalStatusFilter = 'pending' | 'granted' | 'declined' | 'withdrawn' | 'all';

export interface ApprovalRow {
  approval_id: string;
  candidate: string;
  candidate_version: number;
  /** The candidate's state; an open candidate past its expiry reads as 'expired'. */
  candidate_state: string;
  request_id: string;
  status: string;
  policy: string | null;
  prompt: string;
  requested_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
  note: string | null;
}

/** $2 is `now`. */
const SELECT = `SELECT a.approval_id::text AS approval_id, a.candidate_id::text AS candidate, a.candidate_version,
         CASE WHEN c.state = 'open' AND c.expires_at <= $2::timestamptz THEN 'expired' ELSE c.state END AS candidate_state,
         a.request_id, a.status, a.policy, a.prompt, a.requested_at, a.decided_at, a.decided_by, a.note
    FROM approvals a JOIN candidates c ON c.candidate_id = a.candidate_id`;

const DECIDED = { granted: 'granted', declined: 'declined', withdrawn: 'withdrawn' } as const;

/** Oldest first; pending ones only while their candidate is open, unexpired and at the version asked about. */
export async function approvalRows(sql: Sql, q: { status: ApprovalStatusFilter; limit: number; now: string }): Promise<ApprovalRow[]> {
  const where =
    q.status === 'pending'
      ? `WHERE a.status = 'pending' AND c.state = 'open' AND c.expires_at > $2::timestamptz AND c.version = a.candidate_version`
      : q.status === 'all'
        ? ''
        : `WHERE a.status = '${DECIDED[q.status]}'`;
  const { rows } = await sql.query<ApprovalRow>(`${SELECT} ${where} ORDER BY a.log_sequence LIMIT $1`, [q.limit, q.now]);
  return rows;
}

export async function approvalRow(sql: Sql, approvalId: string, now: string): Promise<ApprovalRow | null> {
  const { rows } = await sql.query<ApprovalRow>(`${SELECT} WHERE a.approval_id = $1`, [approvalId, now]);
  return rows[0] ?? null;
}
