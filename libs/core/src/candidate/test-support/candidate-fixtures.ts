import { sha256Hex } from '../../text/sha256';
import type {
  ApplyCandidate,
  DecideApproval,
  DiscardCandidate,
  ProposeCandidate,
  RecordChecks,
  TargetNow,
  TargetObservation,
} from '../candidate.commands';
import { applyFingerprint, proposeFingerprint } from '../input-fingerprint';

export const NOW = '2026-11-30T00:00:00.000Z';
export const LATER = '2026-11-30T00:10:00.000Z';
export const EXPIRES = '2026-12-01T00:00:00.000Z';
export const AFTER_EXPIRY = '2026-12-02T00:00:00.000Z';
export const C = 'c0000000-0000-4000-8000-000000000001';
export const T1 = '10000000-0000-4000-8000-000000000001';
export const T2 = '20000000-0000-4000-8000-000000000002';
export const T3 = '30000000-0000-4000-8000-000000000003';
export const APPROVAL = 'a0000000-0000-4000-8000-000000000001';

export function observed(id: string, content: string, version = 0, filename = 'doc.md'): TargetObservation {
  return { target_id: id, version, hash: sha256Hex(content), filename, content_type: 'text/plain', content };
}

export const TEXT1 = 'alpha beta alpha\n';
export const TEXT2 = '{"a": 1}\n';
export const TEXT3 = 'read me\n';

export const targets = {
  [T1]: observed(T1, TEXT1),
  [T2]: observed(T2, TEXT2, 3, 'data.json'),
  [T3]: observed(T3, TEXT3, 7, 'notes.txt'),
};

export function propose(overrides: Partial<ProposeCandidate> = {}): ProposeCandidate {
  const base = overrides.base ?? [{ target_id: T1, version: 0 }, { target_id: T2, version: 3 }];
  const operations = overrides.operations ?? [
    { kind: 'edit', target_file_id: T1, match: 'alpha', replace: 'gamma', occurrence_index: 2 },
    { kind: 'span', target_file_id: T2, start: 6, end: 7, expected_text: '1', replace: '2' },
  ];
  const expected = overrides.expected_candidate_version ?? null;
  return {
    type: 'ProposeCandidate',
    now: NOW,
    candidate_id: C,
    expected_candidate_version: expected,
    request_id: 'prop-1',
    input_fingerprint: proposeFingerprint({ candidate: expected === null ? null : C, expected_candidate_version: expected, base, operations, intent: null }),
    intent: null,
    base,
    operations,
    expires_at: EXPIRES,
    lookups: { request: null, targets, base_contents: {} },
    ...overrides,
  };
}

export function extend(overrides: Partial<ProposeCandidate> = {}): ProposeCandidate {
  return propose({
    expected_candidate_version: 1,
    request_id: 'prop-2',
    base: [{ target_id: T1, version: 0 }, { target_id: T3, version: 7 }],
    operations: [{ kind: 'match', target_file_id: T1, match: 'beta', replace: 'delta' }],
    lookups: { request: null, targets, base_contents: { [T1]: TEXT1, [T2]: TEXT2 } },
    ...overrides,
  });
}

const still = (version: number, content: string): TargetNow => ({ version, hash: sha256Hex(content), moved_by: null });
export const unmoved: Record<string, TargetNow> = { [T1]: still(0, TEXT1), [T2]: still(3, TEXT2), [T3]: still(7, TEXT3) };

export function apply(overrides: Partial<ApplyCandidate> = {}): ApplyCandidate {
  const version = overrides.expected_candidate_version ?? 1;
  const require = overrides.require_checks ?? [];
  return {
    type: 'ApplyCandidate',
    now: LATER,
    candidate_id: C,
    expected_candidate_version: version,
    request_id: 'apply-1',
    input_fingerprint: applyFingerprint({ candidate: C, expected_candidate_version: version, require_checks: require }),
    require_checks: require,
    approval: { required: false, policy: null, approval_id: APPROVAL },
    receipt_id: 'f0000000-0000-4000-8000-000000000001',
    attempt_ids: { [T1]: 'e0000000-0000-4000-8000-000000000001', [T2]: 'e0000000-0000-4000-8000-000000000002' },
    lookups: { request: null, targets: unmoved },
    ...overrides,
  };
}

export const discard = (overrides: Partial<DiscardCandidate> = {}): DiscardCandidate => ({
  type: 'DiscardCandidate',
  now: LATER,
  candidate_id: C,
  expected_candidate_version: null,
  ...overrides,
});

export const recordChecks = (ok: boolean, overrides: Partial<RecordChecks> = {}): RecordChecks => ({
  type: 'RecordChecks',
  now: LATER,
  candidate_id: C,
  candidate_version: 1,
  results: [{ check: 'json', kind: 'builtin', status: ok ? 'passed' : 'failed', ok, reason: null, targets: [], output: null, duration_ms: 1 }],
  ...overrides,
});

export const decideApproval = (decision: 'grant' | 'decline', overrides: Partial<DecideApproval> = {}): DecideApproval => ({
  type: 'DecideApproval',
  now: LATER,
  candidate_id: C,
  approval_id: APPROVAL,
  decision,
  decided_by: 'operator',
  note: null,
  ...overrides,
});
