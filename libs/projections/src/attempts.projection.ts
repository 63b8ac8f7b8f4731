import type { ProposalAcceptedData, ProposalRejectedData } from '@palimpsest/core/target/target.events';
import { utf8ByteLength } from '@palimpsest/core/text/code-points';
import { joinSql, jsonb, raw, sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

const COLUMNS = [
  'attempt_id', 'log_sequence', 'target_id', 'status', 'protocol_version', 'runtime_version', 'content_hash',
  'content_bytes', 'client_request_id', 'expected_target_version', 'parent_attempt_id', 'regeneration_attempt',
  'source', 'intent', 'before_version', 'after_version', 'failure_reason', 'failure_detail', 'failed_change_id', 'validation_stage', 'diagnostic',
  'editing_cycle_id', 'created_at',
];

type AttemptEvent =
  | { type: 'ProposalAccepted'; data: ProposalAcceptedData }
  | { type: 'ProposalRejected'; data: ProposalRejectedData };

/**
 * INSERT for one attempt row: what its reads filter and sort on, and the plain facts. The submitted record,
 * the change facts and the hashes read only by key stay in the event (joined on log_sequence when asked for).
 */
export function insertAttemptSql(e: AttemptEvent, position: SqlFragment, recordedAt: string): SqlFragment {
  const d = e.data;
  const accepted = e.type === 'ProposalAccepted' ? e.data : null;
  const rejected = e.type === 'ProposalRejected' ? e.data : null;
  const values = [
    sql`${d.attempt_id}`, position, sql`${d.target_id}`, sql`${accepted ? 'accepted' : 'rejected'}`,
    sql`${d.protocol_version}`, sql`${d.runtime_version}`, sql`${d.content_hash}`, sql`${utf8ByteLength(d.content)}`,
    sql`${d.client_request_id}`, sql`${d.expected_target_version}`, sql`${d.parent_attempt_id}`,
    sql`${d.regeneration_attempt}`, sql`${d.source}`, sql`${d.intent}`, sql`${d.before_version}`,
    sql`${accepted ? accepted.after_version : null}`, sql`${rejected?.failure_reason ?? null}`,
    sql`${rejected?.failure_detail ?? null}`, sql`${rejected?.failed_change_id ?? null}`,
    sql`${rejected?.validation_stage ?? null}`, jsonb(accepted ? accepted.warnings : rejected!.diagnostic),
    sql`${d.editing_cycle_id}`, sql`${recordedAt}`,
  ];
  return sql`INSERT INTO attempts (${raw(COLUMNS.join(', '))}) VALUES (${joinSql(values)})`;
}
