import { sha256Hex } from '../text/sha256';
import type { CandidateEvent } from './candidate.events';
import { given } from './test-support/candidate-spec';
import {
  AFTER_EXPIRY, APPROVAL, C, EXPIRES, LATER, T1, T2, T3, TEXT1, TEXT2, apply, decideApproval, discard, extend, propose, recordChecks, targets, unmoved,
} from './test-support/candidate-fixtures';
import { replayOperations } from './target-record';
import type { ExistingCandidate } from './candidate.state';
import type { WithdrawApproval } from './candidate.commands';

const proposed = given([]).when(propose()).then(() => undefined);
const extended = [...proposed, ...given(proposed).when(extend()).then(() => undefined)];
const expiredEvent: CandidateEvent = { type: 'CandidateExpired', data: { candidate_id: C, candidate_version: 1, expires_at: EXPIRES, expired_at: AFTER_EXPIRY } };
const state = (events: CandidateEvent[]) => given(events).state as ExistingCandidate;
const request = (operation: 'change_propose' | 'change_apply', fingerprint: string) => ({
  request_id: operation === 'change_propose' ? 'prop-1' : 'apply-1', operation, input_fingerprint: fingerprint, candidate_id: C, candidate_version: 1, log_sequence: 9,
});

describe('ProposeCandidate (a new candidate)', () => {
  it('resolves every operation to the span it replaced and records the result of each target', () => {
    given([]).when(propose()).then(([e]) => {
      expect(e.type).toBe('CandidateProposed');
      if (e.type !== 'CandidateProposed') return;
      expect(e.data.base.map((b) => [b.target_id, b.version])).toEqual([[T1, 0], [T2, 3]]);
      expect(e.data.operations).toEqual([
        { index: 0, kind: 'edit', target_id: T1, handle: null, start: 11, end: 16, written_end: 16, outcome: 'changed', normalized: false },
        { index: 1, kind: 'span', target_id: T2, handle: null, start: 6, end: 7, written_end: 7, outcome: 'changed', normalized: false },
      ]);
      expect(e.data.changes.map((c) => [c.target_id, c.result_hash])).toEqual([
        [T1, sha256Hex('alpha beta gamma\n')],
        [T2, sha256Hex('{"a": 2}\n')],
      ]);
      expect(replayOperations(TEXT1, e.data.changes[0].operations)).toBe('alpha beta gamma\n');
    });
    const s = state(proposed);
    expect(s).toMatchObject({ version: 1, status: 'open', request_id: 'prop-1', expires_at: EXPIRES });
  });

  it('follows a handle: a later span rewrites exactly the text an earlier operation wrote', () => {
    const ops = [
      { kind: 'span', target_file_id: T1, start: 0, end: 0, expected_text: '', replace: 'NOTE ', handle: 'note' },
      { kind: 'edit', target_file_id: T1, match: 'beta', replace: 'b' },
      { kind: 'span', target_file_id: T1, range: { handle: 'note' }, replace: 'DONE ' },
    ];
    given([]).when(propose({ operations: ops, base: [{ target_id: T1, version: 0 }] })).then(([e]) => {
      if (e.type !== 'CandidateProposed') throw new Error(e.type);
      expect(replayOperations(TEXT1, e.data.changes[0].operations)).toBe('DONE alpha b alpha\n');
      expect(e.data.operations[2]).toMatchObject({ start: 0, end: 5, handle: null });
    });
  });

  it('replaces a whole target (tx/3 kind) and marks line-ending normalization', () => {
    const ops = [{ kind: 'replace_all', target_file_id: T1, replacement: 'new\r\ntext\n' }];
    given([]).when(propose({ operations: ops, base: [{ target_id: T1, version: 0 }] })).then(([e]) => {
      if (e.type !== 'CandidateProposed') throw new Error(e.type);
      expect(e.data.operations[0]).toMatchObject({ start: 0, end: 17, written_end: 9, normalized: true });
      expect(e.data.changes[0].result_hash).toBe(sha256Hex('new\ntext\n'));
    });
  });

  it('is all or nothing: a failing operation names its operation_index and records nothing', () => {
    const ops = [
      { kind: 'edit', target_file_id: T1, match: 'alpha', replace: 'x', occurrence_index: 1 },
      { kind: 'edit', target_file_id: T1, match: 'omega', replace: 'x' },
    ];
    const r = given([]).when(propose({ operations: ops })).thenRefuses('precondition_failed', 'match_absent');
    expect(r).toMatchObject({ operation_index: 1, retryable: 'after_refresh', details: { failure_reason: 'match_absent' } });
    // The absent text cannot be found again: the read of the text is the action that answers, with all its arguments.
    expect(r.next_actions[0]).toMatchObject({ operation: 'palimpsest_read_target', params: { start: 0, length: 4000 } });
  });

  it.each([
    ['target_not_in_base', [{ kind: 'edit', target_file_id: T3, match: 'read', replace: 'x' }]],
    ['unknown_handle', [{ kind: 'span', target_file_id: T1, range: { handle: 'h' }, replace: 'x' }]],
    ['duplicate_handle', [
      { kind: 'edit', target_file_id: T1, match: 'beta', replace: 'b', handle: 'h' },
      { kind: 'edit', target_file_id: T1, match: 'b', replace: 'c', occurrence_index: 1, handle: 'h' },
    ]],
    ['handle_overwritten', [
      { kind: 'edit', target_file_id: T1, match: 'beta', replace: 'BETA', handle: 'h' },
      { kind: 'replace_all', target_file_id: T1, replacement: 'gone\n' },
      { kind: 'span', target_file_id: T1, range: { handle: 'h' }, replace: 'x' },
    ]],
    ['handle_target_mismatch', [
      { kind: 'edit', target_file_id: T1, match: 'beta', replace: 'b', handle: 'h' },
      { kind: 'span', target_file_id: T2, range: { handle: 'h' }, replace: 'x' },
    ]],
  ])('refuses %s as invalid_arguments with its operation_index', (reason, operations) => {
    const r = given([]).when(propose({ operations })).thenRefuses('invalid_arguments', reason);
    expect(r.operation_index).toBe(operations.length - 1);
  });

  it('refuses a base target that is not at the given version (stale_snapshot / base_not_head)', () => {
    const r = given([]).when(propose({ base: [{ target_id: T1, version: 0 }, { target_id: T2, version: 2 }] })).thenRefuses('stale_snapshot', 'base_not_head');
    expect(r).toMatchObject({ retryable: 'after_refresh', details: { moved: [{ target_file_id: T2, base_version: 2, current_version: 3 }] } });
  });

  it('refuses an unknown target, a repeated base target, unstorable text and too many operations', () => {
    const unknown = { ...targets, [T2]: null };
    given([]).when(propose({ lookups: { request: null, targets: unknown, base_contents: {} } })).thenRefuses('not_found', 'target_unknown');
    given([]).when(propose({ base: [{ target_id: T1, version: 0 }, { target_id: T1, version: 0 }] })).thenRefuses('invalid_arguments', 'duplicate_base_target');
    given([]).when(propose({ operations: [{ kind: 'edit', target_file_id: T1, match: 'beta', replace: 'x\ud800' }] })).thenRefuses('invalid_arguments', 'invalid_text_encoding');
    const many = Array.from({ length: 51 }, () => ({ kind: 'edit', target_file_id: T1, match: 'a', replace: 'a', occurrence_index: 1 }));
    given([]).when(propose({ operations: many })).thenRefuses('resource_limit', 'too_many_operations');
  });

  it('replays the same request_id with the same input, and refuses it with another input', () => {
    const cmd = propose();
    given([]).when({ ...cmd, lookups: { ...cmd.lookups, request: request('change_propose', cmd.input_fingerprint) } }).thenReplays();
    given([]).when({ ...cmd, lookups: { ...cmd.lookups, request: request('change_propose', 'f'.repeat(64)) } }).thenRefuses('conflict', 'request_id_reused');
  });
});

describe('ProposeCandidate (extending an open candidate)', () => {
  it('applies the new operations to the candidate text and lets new targets join', () => {
    given(proposed).when(extend()).then(([e]) => {
      if (e.type !== 'CandidateExtended') throw new Error(e.type);
      expect(e.data).toMatchObject({ version: 2, request_id: 'prop-2', base_added: [{ target_id: T3, version: 7 }] });
    });
    const s = state(extended);
    const t1 = s.targets.find((t) => t.target_id === T1)!;
    expect(replayOperations(TEXT1, t1.operations)).toBe('alpha delta gamma\n');
    expect(s.targets.map((t) => t.target_id)).toEqual([T1, T2, T3]);
  });

  it('refuses a stale expected_candidate_version and a base that differs from the candidate base', () => {
    given(extended).when(extend({ request_id: 'prop-3' })).thenRefuses('precondition_failed', 'candidate_version_mismatch');
    given(proposed).when(extend({ base: [{ target_id: T1, version: 1 }] })).thenRefuses('invalid_arguments', 'base_mismatch');
  });

  it('refuses unknown, applied, discarded and expired candidates; a lapsed one is expired on the spot', () => {
    given([]).when(extend()).thenRefuses('not_found', 'candidate_unknown');
    const applied = given(proposed).when(apply()).then(() => undefined);
    given([...proposed, ...applied]).when(extend()).thenRefuses('precondition_failed', 'candidate_applied');
    const discarded = given(proposed).when(discard()).then(() => undefined);
    given([...proposed, ...discarded]).when(extend()).thenRefuses('precondition_failed', 'candidate_closed');
    given([...proposed, expiredEvent]).when(extend()).thenRefuses('snapshot_expired', 'candidate_expired');
    given(proposed).when(extend({ now: AFTER_EXPIRY })).thenRefuses('snapshot_expired', 'candidate_expired', ['CandidateExpired']);
  });
});

describe('RecordChecks', () => {
  it('records one CheckRecorded per result; the latest result per version counts', () => {
    const failed = given(proposed).when(recordChecks(false)).then(() => undefined);
    const passed = given([...proposed, ...failed]).when(recordChecks(true)).then((events) => {
      expect(events).toEqual([{ type: 'CheckRecorded', data: expect.objectContaining({ candidate_version: 1, check: 'json', ok: true, recorded_at: LATER }) }]);
    });
    expect(state([...proposed, ...failed]).checks).toEqual({ 1: { json: false } });
    expect(state([...proposed, ...failed, ...passed]).checks).toEqual({ 1: { json: true } });
  });

  it('refuses a version the candidate never had and a closed candidate', () => {
    given(proposed).when(recordChecks(true, { candidate_version: 2 })).thenRefuses('invalid_arguments', 'candidate_version_unknown');
    given([...proposed, expiredEvent]).when(recordChecks(true)).thenRefuses('snapshot_expired', 'candidate_expired');
  });
});

describe('ApplyCandidate', () => {
  it('applies: every written target at base+1 in target-id order, moved read targets in base_changes', () => {
    const moved = { ...unmoved, [T3]: { version: 8, hash: 'e'.repeat(64), moved_by: { kind: 'direct' as const } } };
    given(extended).when(apply({ expected_candidate_version: 2, lookups: { request: null, targets: moved } })).then(([e]) => {
      if (e.type !== 'CandidateApplied') throw new Error(e.type);
      expect(e.data.targets.map((t) => [t.target_id, t.base_version, t.result_version])).toEqual([[T1, 0, 1], [T2, 3, 4]]);
      expect(e.data.base_changes).toEqual([{ target_id: T3, base_version: 7, base_hash: sha256Hex('read me\n'), current_version: 8, current_hash: 'e'.repeat(64) }]);
      expect(e.data.approval_id).toBeNull();
    });
  });

  it('replays the recorded receipt for the same request, and refuses another apply afterwards', () => {
    const applied = given(proposed).when(apply()).then(() => undefined);
    const cmd = apply();
    given([...proposed, ...applied]).when({ ...cmd, lookups: { ...cmd.lookups, request: request('change_apply', cmd.input_fingerprint) } }).thenReplays();
    given([...proposed, ...applied]).when({ ...cmd, lookups: { ...cmd.lookups, request: request('change_apply', 'f'.repeat(64)) } }).thenRefuses('conflict', 'request_id_reused');
    const r = given([...proposed, ...applied]).when(apply({ request_id: 'apply-2' })).thenRefuses('precondition_failed', 'candidate_applied');
    expect(r.retryable).toBe('none');
  });

  it('refuses a version mismatch and a required check that has not passed on this version', () => {
    given(extended).when(apply({ expected_candidate_version: 1 })).thenRefuses('precondition_failed', 'candidate_version_mismatch');
    const r = given(proposed).when(apply({ require_checks: ['json'] })).thenRefuses('precondition_failed', 'check_required');
    expect(r.next_actions[0]).toMatchObject({ operation: 'palimpsest_check_run', params: { candidate: C, checks: ['json'] } });
    const passed = given(proposed).when(recordChecks(true)).then(() => undefined);
    given([...proposed, ...passed]).when(apply({ require_checks: ['json'] })).then(([e]) => expect(e.type).toBe('CandidateApplied'));
  });

  it('refuses written targets that moved: external_write for a direct submission, concurrent_candidate for a candidate', () => {
    const byDirect = { ...unmoved, [T2]: { version: 4, hash: 'd'.repeat(64), moved_by: { kind: 'direct' as const } } };
    const r1 = given(proposed).when(apply({ lookups: { request: null, targets: byDirect } })).thenRefuses('precondition_failed', 'external_write');
    expect(r1.details).toEqual({ moved: [{ target_file_id: T2, base_version: 3, current_version: 4, moved_by: 'direct_submission' }] });
    const other = 'c0000000-0000-4000-8000-000000000099';
    const byCandidate = { ...unmoved, [T1]: { version: 1, hash: 'd'.repeat(64), moved_by: { kind: 'candidate' as const, candidate_id: other } } };
    const r2 = given(proposed).when(apply({ lookups: { request: null, targets: byCandidate } })).thenRefuses('conflict', 'concurrent_candidate');
    expect(r2).toMatchObject({ retryable: 'after_refresh', details: { moved: [{ target_file_id: T1, moved_by: 'candidate', candidate: other }] } });
  });

  it('checks read inputs on disk: one edited outside Palimpsest is a base change, one gone refuses with nothing written', () => {
    const file = { path: 'read.md', expected_sha256: 'a'.repeat(64) };
    const edited = { ...unmoved, [T3]: { ...unmoved[T3], disk: { ...file, observed_sha256: 'b'.repeat(64) } } };
    given(extended).when(apply({ expected_candidate_version: 2, lookups: { request: null, targets: edited } })).then(([e]) => {
      if (e.type !== 'CandidateApplied') throw new Error(e.type);
      expect(e.data.base_changes).toEqual([{ target_id: T3, base_version: 7, base_hash: sha256Hex('read me\n'), current_version: unmoved[T3].version, current_hash: unmoved[T3].hash }]);
    });
    const gone = { ...unmoved, [T3]: { ...unmoved[T3], disk: { ...file, observed_sha256: null } } };
    const r = given(extended).when(apply({ expected_candidate_version: 2, lookups: { request: null, targets: gone } })).thenRefuses('precondition_failed', 'external_write');
    expect(r.details).toEqual({ gone: [{ target_file_id: T3, path: 'read.md', expected_sha256: 'a'.repeat(64) }] });
    expect(r.next_actions.map((a) => a.operation)).toEqual(['palimpsest_workspace_status', 'palimpsest_change_discard']);
  });

  it('expires a lapsed candidate instead of applying it', () => {
    given(proposed).when(apply({ now: AFTER_EXPIRY })).thenRefuses('snapshot_expired', 'candidate_expired', ['CandidateExpired']);
    given([]).when(apply()).thenRefuses('not_found', 'candidate_unknown');
  });

  describe('under a policy that needs approval', () => {
    const needs = { required: true, policy: 'reviewed', approval_id: APPROVAL };
    const requested = given(proposed).when(apply({ approval: needs })).then(([e]) => {
      expect(e).toMatchObject({ type: 'ApprovalRequested', data: { approval_id: APPROVAL, candidate_version: 1, request_id: 'apply-1', policy: 'reviewed' } });
    });
    const pending = [...proposed, ...requested];

    it('asks once and then waits: a pending approval records nothing more', () => {
      const d = given(pending).when(apply({ approval: { ...needs, approval_id: 'other' } })).decision;
      expect(d).toEqual({ kind: 'awaiting_approval', events: [], approval_id: APPROVAL });
    });

    it('applies once granted, naming the approval', () => {
      const granted = given(pending).when(decideApproval('grant')).then(() => undefined);
      given([...pending, ...granted]).when(apply({ approval: needs })).then(([e]) => {
        expect(e).toMatchObject({ type: 'CandidateApplied', data: { approval_id: APPROVAL } });
      });
    });

    it('answers a decline with permission_denied / approval_declined, whatever request_id asks again', () => {
      const declined = given(pending).when(decideApproval('decline')).then(() => undefined);
      const r = given([...pending, ...declined]).when(apply({ approval: needs, request_id: 'apply-9' })).thenRefuses('permission_denied', 'approval_declined');
      expect(r).toMatchObject({ retryable: 'none', details: { answer: 'APPROVAL_DECLINED' } });
    });
  });
});

describe('DiscardCandidate', () => {
  it('discards an open candidate', () => {
    given(proposed).when(discard({ expected_candidate_version: 1 })).then(() => [
      { type: 'CandidateDiscarded', data: { candidate_id: C, candidate_version: 1, discarded_at: LATER } },
    ]);
  });

  it('refuses a version mismatch, a closed candidate, and answers expiry as not_found / candidate_expired', () => {
    given(proposed).when(discard({ expected_candidate_version: 2 })).thenRefuses('precondition_failed', 'candidate_version_mismatch');
    const discarded = given(proposed).when(discard()).then(() => undefined);
    given([...proposed, ...discarded]).when(discard()).thenRefuses('precondition_failed', 'candidate_closed');
    given(proposed).when(discard({ now: AFTER_EXPIRY })).thenRefuses('not_found', 'candidate_expired', ['CandidateExpired']);
    given([]).when(discard()).thenRefuses('not_found', 'candidate_unknown');
  });
});

describe('DecideApproval', () => {
  const needs = { required: true, policy: null, approval_id: APPROVAL };
  const pending = [...proposed, ...given(proposed).when(apply({ approval: needs })).then(() => undefined)];

  it('grants and declines a pending approval', () => {
    given(pending).when(decideApproval('grant', { note: 'ok' })).then(() => [
      { type: 'ApprovalGranted', data: { approval_id: APPROVAL, candidate_id: C, candidate_version: 1, decided_by: 'operator', note: 'ok', decided_at: LATER } },
    ]);
    given(pending).when(decideApproval('decline')).then(([e]) => expect(e.type).toBe('ApprovalDeclined'));
    expect(state([...pending, ...given(pending).when(decideApproval('decline')).then(() => undefined)]).approvals[0].status).toBe('declined');
  });

  it('refuses an unknown approval, a second decision, a stale one and one on an expired candidate', () => {
    given(pending).when(decideApproval('grant', { approval_id: 'nope' })).thenRefuses('not_found', 'approval_unknown');
    const granted = [...pending, ...given(pending).when(decideApproval('grant')).then(() => undefined)];
    given(granted).when(decideApproval('decline')).thenRefuses('precondition_failed', 'approval_decided');
    const later = [...pending, ...given(pending).when(extend({ expected_candidate_version: 1 })).then(() => undefined)];
    given(later).when(decideApproval('grant')).thenRefuses('precondition_failed', 'approval_stale');
    given(pending).when(decideApproval('grant', { now: AFTER_EXPIRY })).thenRefuses('snapshot_expired', 'candidate_expired', ['CandidateExpired']);
  });
});

describe('WithdrawApproval', () => {
  const needs = { required: true, policy: null, approval_id: APPROVAL };
  const pending = [...proposed, ...given(proposed).when(apply({ approval: needs })).then(() => undefined)];
  const withdraw = (overrides: Partial<WithdrawApproval> = {}): WithdrawApproval => ({ type: 'WithdrawApproval', now: LATER, candidate_id: C, approval_id: APPROVAL, reason: 'cancelled', ...overrides });

  it('withdraws a pending approval and discards the candidate in one decision', () => {
    const events = given(pending).when(withdraw()).then(() => [
      { type: 'ApprovalWithdrawn', data: { approval_id: APPROVAL, candidate_id: C, candidate_version: 1, reason: 'cancelled', withdrawn_at: LATER } },
      { type: 'CandidateDiscarded', data: { candidate_id: C, candidate_version: 1, discarded_at: LATER } },
    ]);
    const after = state([...pending, ...events]);
    expect(after).toMatchObject({ status: 'discarded', approvals: [{ approval_id: APPROVAL, status: 'withdrawn' }] });
    given([...pending, ...events]).when(decideApproval('grant')).thenRefuses('precondition_failed', 'approval_decided');
    given([...pending, ...events]).when(apply({ approval: needs })).thenRefuses('permission_denied', 'approval_withdrawn');
  });

  it('withdraws a granted approval not yet applied, and refuses once applied', () => {
    const granted = [...pending, ...given(pending).when(decideApproval('grant')).then(() => undefined)];
    given(granted).when(withdraw()).then(([e]) => expect(e.type).toBe('ApprovalWithdrawn'));
    const applied = [...granted, ...given(granted).when(apply({ approval: needs })).then(() => undefined)];
    given(applied).when(withdraw()).thenRefuses('precondition_failed', 'candidate_applied');
    given(pending).when(withdraw({ approval_id: 'nope' })).thenRefuses('not_found', 'approval_unknown');
  });
});

it('the fixtures are what they claim', () => {
  expect(targets[T2].content).toBe(TEXT2);
});
