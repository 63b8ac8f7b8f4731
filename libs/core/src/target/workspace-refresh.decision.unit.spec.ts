import { sha256Hex } from '../text/sha256';
import { decide, evolve } from './target.decider';
import type { TargetEvent } from './target.events';
import { initialTargetState, type ExistingTarget, type TargetState } from './target.state';
import { decideRefresh, type RefreshWorkspaceFile } from './workspace-refresh.decision';

const T = '11111111-1111-4111-8111-111111111111';
const A = '44444444-4444-4444-8444-444444444444';
const NOW = '2026-12-01T00:00:00.000Z';

function bound(content: string): ExistingTarget {
  const d = decide(
    { type: 'InitializeTarget', now: NOW, target_id: T, filename: 'a.md', content, content_type: 'text/plain', project_id: null, editing_cycle_id: '22222222-2222-4222-8222-222222222222', snapshot_id: '33333333-3333-4333-8333-333333333333' },
    initialTargetState,
  );
  if (d.kind !== 'decided' || !d.state.exists) throw new Error('no target');
  return d.state;
}

const refresh = (content: string, extra: Partial<RefreshWorkspaceFile> = {}): RefreshWorkspaceFile => ({
  now: NOW, attempt_id: A, path: 'a.md', content, disk_sha256: sha256Hex(content), previous_disk_sha256: 'f'.repeat(64),
  expected_target_version: null, expected_current_hash: null, ...extra,
});

describe('decideRefresh', () => {
  it('takes changed text in as an accepted tx/3 replacement from external_disk, then the new baseline', () => {
    const target = bound('one\r\ntwo\r\n');
    const d = decideRefresh(refresh('one\r\nthree\r\n'), target);
    if (d.kind !== 'decided') throw new Error('refused');
    expect(d.events.map((e) => e.type)).toEqual(['ProposalAccepted', 'WorkspaceFileRefreshed']);
    const [accepted, refreshed] = d.events as [Extract<TargetEvent, { type: 'ProposalAccepted' }>, Extract<TargetEvent, { type: 'WorkspaceFileRefreshed' }>];
    expect(accepted.data).toMatchObject({ attempt_id: A, source: 'external_disk', protocol_version: 'patchdiff-tx/3', intent: 'Take in an external change to a.md', expected_target_version: 0, after_hash: sha256Hex('one\nthree\n') });
    expect(refreshed.data).toEqual({ target_id: T, path: 'a.md', disk_sha256: sha256Hex('one\r\nthree\r\n'), previous_disk_sha256: 'f'.repeat(64), attempt_id: A, source_line_ending_style: 'crlf', refreshed_at: NOW });
    expect(d.state).toMatchObject({ version: 1, content: 'one\nthree\n', source_line_endings: { style: 'crlf' } });
    const start: TargetState = target;
    expect(d.events.reduce(evolve, start)).toEqual(d.state);
  });

  it('records only the baseline when the canonical text is unchanged', () => {
    const target = bound('a\nb\n');
    const d = decideRefresh(refresh('a\r\nb\r\n'), target);
    if (d.kind !== 'decided') throw new Error('refused');
    expect(d.events).toEqual([expect.objectContaining({ type: 'WorkspaceFileRefreshed', data: expect.objectContaining({ attempt_id: null }) })]);
    expect(d.state).toBe(target);
  });

  it('refuses stale guards without an event', () => {
    const target = bound('a\n');
    expect(decideRefresh(refresh('b\n', { expected_target_version: 2 }), target)).toMatchObject({ kind: 'refused', refusal: { kind: 'guard_stale', stale: { failure_reason: 'target_version_mismatch' } } });
    expect(decideRefresh(refresh('b\n', { expected_current_hash: '0'.repeat(64) }), target)).toMatchObject({ kind: 'refused', refusal: { kind: 'guard_stale', stale: { failure_reason: 'target_hash_mismatch' } } });
  });
});
