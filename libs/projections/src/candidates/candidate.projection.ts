import type { CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import type { ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';
import type { Sql } from '@palimpsest/store/db';
import { combineStatements } from '../inline-projections';
import { SqlParams } from '../sql-params';

/**
 * The candidate read models, brought up to one event by one statement of data-modifying CTEs:
 * the candidate row from the state after the event, plus the rows the event itself adds.
 */

export interface ProjectedCandidateEvent {
  event: CandidateEvent;
  position: number;
  streamVersion: number;
  recordedAt: string;
  stateAfter: ExistingCandidate;
}

export const CANDIDATE_TABLES = ['candidates', 'candidate_targets', 'candidate_checks', 'candidate_requests', 'approvals'] as const;

function candidateRowSql(p: SqlParams, pe: ProjectedCandidateEvent): string {
  const s = pe.stateAfter;
  const values = [
    p.add(s.candidate_id), p.add(s.version), p.add(s.status), p.add(s.intent), p.add(s.request_id), p.add(s.input_fingerprint),
    p.add(s.expires_at), p.add(s.applied?.request_id ?? null), p.add(s.applied?.receipt_id ?? null), p.add(pe.streamVersion),
    p.add(pe.position), p.add(s.created_at), p.add(pe.recordedAt),
  ];
  return `INSERT INTO candidates (candidate_id, version, state, intent, request_id, input_fingerprint, expires_at, applied_request_id,
            receipt_id, stream_version, last_position, created_at, updated_at)
          VALUES (${values.join(', ')})
          ON CONFLICT (candidate_id) DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state, intent = EXCLUDED.intent,
            request_id = EXCLUDED.request_id, input_fingerprint = EXCLUDED.input_fingerprint, expires_at = EXCLUDED.expires_at,
            applied_request_id = EXCLUDED.applied_request_id, receipt_id = EXCLUDED.receipt_id,
            stream_version = EXCLUDED.stream_version, last_position = EXCLUDED.last_position, updated_at = EXCLUDED.updated_at`;
}

function targetsSql(p: SqlParams, s: ExistingCandidate): string {
  const rows = s.targets.map((t, ordinal) => ({
    target_id: t.target_id, ordinal, filename: t.filename, content_type: t.content_type, base_version: t.version,
    base_hash: t.hash, result_hash: t.result_hash, operation_count: t.operations.length,
  }));
  return `INSERT INTO candidate_targets (candidate_id, target_id, ordinal, filename, content_type, base_version, base_hash, result_hash, operation_count)
          SELECT ${p.add(s.candidate_id)}::uuid, x.target_id, x.ordinal, x.filename, x.content_type, x.base_version, x.base_hash, x.result_hash, x.operation_count
          FROM jsonb_to_recordset(${p.json(rows)}) AS x(target_id uuid, ordinal integer, filename text, content_type text,
               base_version bigint, base_hash text, result_hash text, operation_count integer)
          ON CONFLICT (candidate_id, target_id) DO UPDATE SET result_hash = EXCLUDED.result_hash, operation_count = EXCLUDED.operation_count`;
}

function requestSql(p: SqlParams, pe: ProjectedCandidateEvent, operation: string, requestId: string, fingerprint: string, version: number): string {
  const values = [p.add(requestId), p.add(operation), p.add(fingerprint), p.add(pe.stateAfter.candidate_id), p.add(version), p.add(pe.position), p.add(pe.recordedAt)];
  return `INSERT INTO candidate_requests (request_id, operation, input_fingerprint, candidate_id, candidate_version, log_sequence, recorded_at)
          VALUES (${values.join(', ')})`;
}

function eventSql(p: SqlParams, pe: ProjectedCandidateEvent): string[] {
  const { event } = pe;
  switch (event.type) {
    case 'CandidateProposed':
    case 'CandidateExtended': {
      const d = event.data;
      return [targetsSql(p, pe.stateAfter), requestSql(p, pe, 'change_propose', d.request_id, d.input_fingerprint, d.version)];
    }
    case 'CheckRecorded': {
      const d = event.data;
      const values = [p.add(d.candidate_id), p.add(d.candidate_version), p.add(d.check), p.add(d.ok), p.add(d.status), p.json(d), p.add(pe.position), p.add(pe.recordedAt)];
      return [`INSERT INTO candidate_checks (candidate_id, candidate_version, check_name, ok, status, result, log_sequence, recorded_at)
               VALUES (${values.join(', ')})
               ON CONFLICT (candidate_id, candidate_version, check_name) DO UPDATE SET ok = EXCLUDED.ok, status = EXCLUDED.status,
                 result = EXCLUDED.result, log_sequence = EXCLUDED.log_sequence, recorded_at = EXCLUDED.recorded_at`];
    }
    case 'ApprovalRequested': {
      const d = event.data;
      const values = [p.add(d.approval_id), p.add(d.candidate_id), p.add(d.candidate_version), p.add(d.request_id), p.add(d.input_fingerprint), p.add(d.policy), p.add(d.prompt), p.add(d.requested_at), p.add(pe.position)];
      return [`INSERT INTO approvals (approval_id, candidate_id, candidate_version, request_id, input_fingerprint, status, policy, prompt, requested_at, log_sequence)
               VALUES (${values.slice(0, 5).join(', ')}, 'pending', ${values.slice(5).join(', ')})`];
    }
    case 'ApprovalGranted':
    case 'ApprovalDeclined': {
      const d = event.data;
      const status = event.type === 'ApprovalGranted' ? 'granted' : 'declined';
      return [`UPDATE approvals SET status = ${p.add(status)}, decided_at = ${p.add(d.decided_at)}, decided_by = ${p.add(d.decided_by)},
                 note = ${p.add(d.note)}, decision_sequence = ${p.add(pe.position)} WHERE approval_id = ${p.add(d.approval_id)}`];
    }
    case 'ApprovalWithdrawn': {
      const d = event.data;
      return [`UPDATE approvals SET status = 'withdrawn', decided_at = ${p.add(d.withdrawn_at)}, decided_by = 'caller',
                 note = ${p.add(`withdrawn: the call that asked was ${d.reason}`)}, decision_sequence = ${p.add(pe.position)} WHERE approval_id = ${p.add(d.approval_id)}`];
    }
    case 'CandidateApplied': {
      const d = event.data;
      const written = d.targets.map((t) => ({ target_id: t.target_id, result_version: t.result_version }));
      return [
        `UPDATE candidate_targets ct SET result_version = x.result_version
           FROM jsonb_to_recordset(${p.json(written)}) AS x(target_id uuid, result_version bigint)
          WHERE ct.candidate_id = ${p.add(d.candidate_id)} AND ct.target_id = x.target_id`,
        requestSql(p, pe, 'change_apply', d.request_id, d.input_fingerprint, d.candidate_version),
      ];
    }
    case 'CandidateDiscarded':
    case 'CandidateExpired':
      return [];
  }
}

export async function projectCandidateEvents(tx: Sql, events: ProjectedCandidateEvent[]): Promise<void> {
  for (const pe of events) {
    const p = new SqlParams();
    const statements = [candidateRowSql(p, pe), ...eventSql(p, pe)];
    await tx.query(combineStatements(statements), p.values);
  }
}
