import type { ProposalAcceptedData, ProposalRejectedData } from '@palimpsest/core/target/target.events';
import { utf8ByteLength } from '@palimpsest/core/text/code-points';
import { joinSql, jsonb, raw, sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

const COLUMNS = [
  'attempt_id', 'log_sequence', 'target_id', 'status', 'protocol_version', 'runtime_version', 'content_hash',
  'content_bytes', 'request_fingerprint', 'client_request_id', 'expected_target_version', 'expected_current_hash',
  'parent_attempt_id', 'regeneration_attempt', 'source', 'intent', 'before_version', 'after_version', 'before_hash',
  'after_hash', 'failure_reason', 'failure_detail', 'failed_change_id', 'validation_stage', 'diagnostic',
  'editing_cycle_id', 'created_at',
];

type AttemptEvent =
  | { type: 'ProposalAccepted'; data: ProposalAcceptedData }
  | { type: 'ProposalRejected'; data: ProposalRejectedData };

/** INSERT for one attempt row; the submitted record and the change facts stay in the event (joined when asked for). */
export function insertAttemptSql(e: AttemptEvent, position: SqlFragment, recordedAt: string): SqlFragment {
  const d = e.data;
  const accepted = e.type === 'ProposalAccepted' ? e.data : null;
  const rejected = e.type === 'ProposalRejected' ? e.data : null;
  const values = [
    sql`${d.attempt_id}`, position, sql`${d.target_id}`, sql`${accepted ? 'accepted' : 'rejected'}`,
    sql`${d.protocol_version}`, sql`${d.runtime_version}`, sql`${d.content_hash}`, sql`${utf8ByteLength(d.content)}`,
    sql`${d.request_fingerprint}`, sql`${d.client_request_id}`, sql`${d.expected_target_version}`,
    sql`${d.expected_current_hash}`, sql`${d.parent_attempt_id}`, sql`${d.regeneration_attempt}`, sql`${d.source}`,
    sql`${d.intent}`, sql`${d.before_version}`, sql`${accepted ? accepted.after_version : null}`, sql`${d.before_hash}`,
    sql`${accepted ? accepted.after_hash : null}`, sql`${rejected?.failure_reason ?? null}`,
    sql`${rejected?.failure_detail ?? null}`, sql`${rejected?.failed_change_id ?? null}`,
    sql`${rejected?.validation_stage ?? null}`, jsonb(accepted ? accepted.warnings : rejected!.diagnostic),
    sql`${d.editing_cycle_id}`, sql`${recordedAt}`,
  ];
  return sql`INSERT INTO attempts (${raw(COLUMNS.join(', '))}) VALUES (${joinSql(values)})`;
}
