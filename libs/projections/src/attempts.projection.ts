import type { ProposalAcceptedData, ProposalRejectedData } from '@palimpsest/core/target/target.events';
import { utf8ByteLength } from '@palimpsest/core/text/code-points';
import type { SqlParams } from './sql-params';

const COLUMNS = [
  'attempt_id', 'log_sequence', 'target_id', 'status', 'protocol_version', 'runtime_version', 'content_hash',
  'content_bytes', 'request_fingerprint', 'client_request_id', 'expected_target_version', 'expected_current_hash',
  'parent_attempt_id', 'regeneration_attempt', 'source', 'intent', 'before_version', 'after_version', 'before_hash',
  'after_hash', 'failure_reason', 'failure_detail', 'failed_change_id', 'validation_stage', 'diagnostic',
  'change_facts', 'editing_cycle_id', 'created_at',
];

type AttemptEvent =
  | { type: 'ProposalAccepted'; data: ProposalAcceptedData }
  | { type: 'ProposalRejected'; data: ProposalRejectedData };

/** INSERT for one attempt row; the submitted record itself stays in the event (joined when asked for). */
export function insertAttemptSql(p: SqlParams, e: AttemptEvent, position: string, recordedAt: string): string {
  const d = e.data;
  const accepted = e.type === 'ProposalAccepted' ? e.data : null;
  const rejected = e.type === 'ProposalRejected' ? e.data : null;
  const values = [
    p.add(d.attempt_id), position, p.add(d.target_id), p.add(accepted ? 'accepted' : 'rejected'),
    p.add(d.protocol_version), p.add(d.runtime_version), p.add(d.content_hash), p.add(utf8ByteLength(d.content)),
    p.add(d.request_fingerprint), p.add(d.client_request_id), p.add(d.expected_target_version),
    p.add(d.expected_current_hash), p.add(d.parent_attempt_id), p.add(d.regeneration_attempt), p.add(d.source),
    p.add(d.intent), p.add(d.before_version), p.add(accepted ? accepted.after_version : null), p.add(d.before_hash),
    p.add(accepted ? accepted.after_hash : null), p.add(rejected?.failure_reason ?? null),
    p.add(rejected?.failure_detail ?? null), p.add(rejected?.failed_change_id ?? null),
    p.add(rejected?.validation_stage ?? null), p.json(accepted ? accepted.warnings : rejected!.diagnostic),
    p.json(accepted ? accepted.change_facts : null), p.add(d.editing_cycle_id), p.add(recordedAt),
  ];
  return `INSERT INTO attempts (${COLUMNS.join(', ')}) VALUES (${values.join(', ')})`;
}
