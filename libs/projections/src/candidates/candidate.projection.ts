import { CANDIDATE_EVENT_TYPES, type CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import type { ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';
import type { InlineProjection, ProjectedEvent } from '@palimpsest/store/inline-projection';
import { joinSql, jsonb, sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

const positionOf = (pe: ProjectedCandidateEvent): SqlFragment => pe.position;

/**
 * The candidate read models, brought up to one event by one statement of data-modifying CTEs:
 * the candidate row from the state after the event, plus the rows the event itself adds.
 */

/** A candidate event with the candidate right after it. */
export type ProjectedCandidateEvent = ProjectedEvent<CandidateEvent, ExistingCandidate>;

export const CANDIDATE_TABLES = ['candidates', 'candidate_targets', 'candidate_checks', 'candidate_requests', 'approvals'] as const;

function candidateRowSql(pe: ProjectedCandidateEvent): SqlFragment {
  const s = pe.after;
  const values = [
    sql`${s.candidate_id}`, sql`${s.version}`, sql`${s.status}`, sql`${s.intent}`, sql`${s.request_id}`, sql`${s.input_fingerprint}`,
    sql`${s.expires_at}`, sql`${s.applied?.request_id ?? null}`, sql`${s.applied?.receipt_id ?? null}`, sql`${pe.streamVersion}`,
    positionOf(pe), sql`${s.created_at}`, sql`${pe.recordedAt}`,
  ];
  return sql`INSERT INTO candidates (candidate_id, version, state, intent, request_id, input_fingerprint, expires_at, applied_request_id,
            receipt_id, stream_version, last_position, created_at, updated_at)
          SELECT ${joinSql(values)} WHERE ${pe.appended}
          ON CONFLICT (candidate_id) DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state, intent = EXCLUDED.intent,
            request_id = EXCLUDED.request_id, input_fingerprint = EXCLUDED.input_fingerprint, expires_at = EXCLUDED.expires_at,
            applied_request_id = EXCLUDED.applied_request_id, receipt_id = EXCLUDED.receipt_id,
            stream_version = EXCLUDED.stream_version, last_position = EXCLUDED.last_position, updated_at = EXCLUDED.updated_at`;
}

function targetsSql(s: ExistingCandidate): SqlFragment {
  const rows = s.targets.map((t, ordinal) => ({
    target_id: t.target_id, ordinal, filename: t.filename, content_type: t.content_type, base_version: t.version,
    base_hash: t.hash, result_hash: t.result_hash, operation_count: t.operations.length,
  }));
  return sql`INSERT INTO candidate_targets (candidate_id, target_id, ordinal, filename, content_type, base_version, base_hash, result_hash, operation_count)
          SELECT ${s.candidate_id}::uuid, x.target_id, x.ordinal, x.filename, x.content_type, x.base_version, x.base_hash, x.result_hash, x.operation_count
          FROM jsonb_to_recordset(${jsonb(rows)}) AS x(target_id uuid, ordinal integer, filename text, content_type text,
               base_version bigint, base_hash text, result_hash text, operation_count integer)
          ON CONFLICT (candidate_id, target_id) DO UPDATE SET result_hash = EXCLUDED.result_hash, operation_count = EXCLUDED.operation_count`;
}

function requestSql(pe: ProjectedCandidateEvent, operation: string, requestId: string, fingerprint: string, version: number): SqlFragment {
  const values = [sql`${requestId}`, sql`${operation}`, sql`${fingerprint}`, sql`${pe.after.candidate_id}`, sql`${version}`, positionOf(pe), sql`${pe.recordedAt}`];
  return sql`INSERT INTO candidate_requests (request_id, operation, input_fingerprint, candidate_id, candidate_version, log_sequence, recorded_at)
          SELECT ${joinSql(values)} WHERE ${pe.appended}`;
}

function eventSql(pe: ProjectedCandidateEvent): SqlFragment[] {
  const { event } = pe;
  switch (event.type) {
    case 'CandidateProposed':
    case 'CandidateExtended': {
      const d = event.data;
      return [targetsSql(pe.after), requestSql(pe, 'change_propose', d.request_id, d.input_fingerprint, d.version)];
    }
    case 'CheckRecorded': {
      const d = event.data;
      const values = [sql`${d.candidate_id}`, sql`${d.candidate_version}`, sql`${d.check}`, sql`${d.ok}`, sql`${d.status}`, jsonb(d), positionOf(pe), sql`${pe.recordedAt}`];
      return [sql`INSERT INTO candidate_checks (candidate_id, candidate_version, check_name, ok, status, result, log_sequence, recorded_at)
               SELECT ${joinSql(values)} WHERE ${pe.appended}
               ON CONFLICT (candidate_id, candidate_version, check_name) DO UPDATE SET ok = EXCLUDED.ok, status = EXCLUDED.status,
                 result = EXCLUDED.result, log_sequence = EXCLUDED.log_sequence, recorded_at = EXCLUDED.recorded_at`];
    }
    case 'ApprovalRequested': {
      const d = event.data;
      const values = [sql`${d.approval_id}`, sql`${d.candidate_id}`, sql`${d.candidate_version}`, sql`${d.request_id}`, sql`${d.input_fingerprint}`, sql`${d.policy}`, sql`${d.prompt}`, sql`${d.requested_at}`, positionOf(pe)];
      return [sql`INSERT INTO approvals (approval_id, candidate_id, candidate_version, request_id, input_fingerprint, status, policy, prompt, requested_at, log_sequence)
               SELECT ${joinSql(values.slice(0, 5))}, 'pending', ${joinSql(values.slice(5))} WHERE ${pe.appended}`];
    }
    case 'ApprovalGranted':
    case 'ApprovalDeclined': {
      const d = event.data;
      const status = event.type === 'ApprovalGranted' ? 'granted' : 'declined';
      return [sql`UPDATE approvals SET status = ${status}, decided_at = ${d.decided_at}, decided_by = ${d.decided_by},
                 note = ${d.note}, decision_sequence = ${positionOf(pe)} WHERE approval_id = ${d.approval_id} AND ${pe.appended}`];
    }
    case 'ApprovalWithdrawn': {
      const d = event.data;
      return [sql`UPDATE approvals SET status = 'withdrawn', decided_at = ${d.withdrawn_at}, decided_by = 'caller',
                 note = ${`withdrawn: the call that asked was ${d.reason}`}, decision_sequence = ${positionOf(pe)} WHERE approval_id = ${d.approval_id} AND ${pe.appended}`];
    }
    case 'CandidateApplied': {
      const d = event.data;
      const written = d.targets.map((t) => ({ target_id: t.target_id, result_version: t.result_version }));
      return [
        sql`UPDATE candidate_targets ct SET result_version = x.result_version
           FROM jsonb_to_recordset(${jsonb(written)}) AS x(target_id uuid, result_version bigint)
          WHERE ct.candidate_id = ${d.candidate_id} AND ct.target_id = x.target_id AND ${pe.appended}`,
        requestSql(pe, 'change_apply', d.request_id, d.input_fingerprint, d.candidate_version),
      ];
    }
    case 'CandidateDiscarded':
    case 'CandidateExpired':
      return [];
  }
}

/** Registered with the store for every candidate event. */
export const candidateProjection: InlineProjection<CandidateEvent, ExistingCandidate> = {
  name: 'candidates',
  canHandle: CANDIDATE_EVENT_TYPES,
  handle: (pe) => [candidateRowSql(pe), ...eventSql(pe)],
};
