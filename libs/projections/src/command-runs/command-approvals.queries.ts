import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere } from '@palimpsest/store/stored-event';

/**
 * Approvals of command runs, read from the runs' streams, archived or not (a run has no read model: its
 * stream is its record). An approval is pending until CommandApproved, CommandDeclined or a CommandRefused (the
 * waiting call timed out or was cancelled) follows its CommandApprovalRequested.
 */

export type CommandApprovalStatus = 'pending' | 'granted' | 'declined' | 'timed_out';

export interface CommandApprovalRow {
  approval_id: string;
  run_id: string;
  command: string;
  rule: string | null;
  prompt: string;
  status: CommandApprovalStatus;
  requested_at: string;
  decided_by: string | null;
  note: string | null;
}

const SELECT = `SELECT a.data->>'approval_id' AS approval_id, a.data->>'run_id' AS run_id, r.data->>'command' AS command,
         a.data->>'rule' AS rule, a.data->>'prompt' AS prompt, a.data->>'requested_at' AS requested_at,
         CASE WHEN d.event_type = 'CommandApproved' THEN 'granted' WHEN d.event_type = 'CommandDeclined' THEN 'declined'
              WHEN d.event_type = 'CommandRefused' THEN 'timed_out' ELSE 'pending' END AS status,
         d.data->>'decided_by' AS decided_by, d.data->>'note' AS note
    FROM ${everyEventWhere("event_type = 'CommandApprovalRequested'")} a
    CROSS JOIN LATERAL ${everyEventWhere("stream_id = a.stream_id AND event_type = 'CommandRequested'")} r
    LEFT JOIN LATERAL (SELECT e.event_type, e.data FROM ${everyEventWhere("stream_id = a.stream_id AND event_type IN ('CommandApproved', 'CommandDeclined', 'CommandRefused')")} e
                        ORDER BY e.global_position LIMIT 1) d ON true
   WHERE a.event_type = 'CommandApprovalRequested'`;

/** Oldest first; `status` 'all' lists every one. */
export async function commandApprovalRows(sql: Sql, q: { status: CommandApprovalStatus | 'all'; limit: number }): Promise<CommandApprovalRow[]> {
  const { rows } = await sql.query<CommandApprovalRow>(
    `SELECT * FROM (${SELECT}) x WHERE $2::text = 'all' OR x.status = $2::text ORDER BY x.requested_at LIMIT $1`,
    [q.limit, q.status],
  );
  return rows;
}

export async function commandApprovalRow(sql: Sql, approvalId: string): Promise<CommandApprovalRow | null> {
  const { rows } = await sql.query<CommandApprovalRow>(`${SELECT} AND a.data->>'approval_id' = $1`, [approvalId]);
  return rows[0] ?? null;
}
