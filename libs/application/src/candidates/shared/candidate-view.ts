import type { OperationOutcome } from '@palimpsest/core/candidate/candidate.events';
import { isLapsed, writes, type ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';

/** Wire shapes shared by the candidate operations (target ids are target_file_id on the wire). */

export function candidateView(s: ExistingCandidate, now: string) {
  return {
    id: s.candidate_id,
    version: s.version,
    state: isLapsed(s, now) ? 'expired' : s.status,
    intent: s.intent,
    base: s.targets.map((t) => ({ target_file_id: t.target_id, filename: t.filename, version: t.version, hash: t.hash })),
    request_id: s.request_id,
    input_fingerprint: s.input_fingerprint,
    created_at: s.created_at,
    expires_at: s.expires_at,
  };
}

export function filesView(s: ExistingCandidate) {
  return s.targets.map((t) => ({
    target_file_id: t.target_id,
    filename: t.filename,
    change: writes(t) ? 'modified' : 'unchanged',
    base_version: t.version,
    before_sha256: t.hash,
    after_sha256: t.result_hash,
    operations: t.operations.length,
  }));
}

export function operationsView(outcomes: OperationOutcome[]) {
  return outcomes.map((o) => ({
    index: o.index,
    kind: o.kind,
    target_file_id: o.target_id,
    outcome: o.outcome,
    start: o.start,
    end: o.end,
    written_end: o.written_end,
    ...(o.handle === null ? {} : { handle: o.handle }),
    ...(o.normalized ? { normalized: true } : {}),
  }));
}
