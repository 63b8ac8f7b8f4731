import type { StoredEvent } from '@palimpsest/store/stored-event';
import { verificationFragment, workspaceFragment } from './audit-view.render';
import { diffFragment, timelineRow } from './timeline.render';

const HOSTILE = '<script>alert(1)</script>';

function event(type: string, data: Record<string, unknown>, metadata: Record<string, unknown> = {}): StoredEvent {
  return { globalPosition: 7, streamId: 'target-x', streamVersion: 3, type, schemaVersion: 1, data, metadata, recordedAt: '2026-01-01T00:00:00.000Z', transactionXid: '1' };
}

describe('the audit view\'s fragments', () => {
  it('shows a refused attempt\'s reason and caller, every caller-sent value as text', () => {
    const row = timelineRow(event('ProposalRejected', { intent: HOSTILE, failure_reason: 'match_absent', failure_detail: HOSTILE, attempt_id: 'a-1' }, { correlation_id: `"><b>${HOSTILE}`, tool: HOSTILE })).text;
    expect(row).not.toMatch(/<script|<b>/);
    expect(row).toContain('class="outcome">refused<');
    expect(row).toContain('match_absent: &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(row).toContain('&quot;&gt;&lt;b&gt;');
  });

  it('shows an accepted attempt with the version it made', () => {
    expect(timelineRow(event('ProposalAccepted', { after_version: 4, intent: 'x' })).text).toContain('accepted → v4');
  });

  it('names the failing event of a verification, and says when the audit log is off', () => {
    const failure = { kind: 'event' as const, global_position: 5, stream_id: 'target-x', stream_version: 3, reason: 'its content or place does not match its chain link' };
    const failed = verificationFragment({ report: { ok: false, failure, events: 9, streams: 2, checkpoints: 1, proven: 8, latest: null }, checkpoint: null }).text;
    expect(failed).toContain('Verification failed: event at position 5 (target-x version 3)');
    expect(verificationFragment(null).text).toContain('The audit log is off');
  });

  it('lists the targets whose replay diverged', () => {
    const page = { status: 'failed' as const, checked: 3, next_after: null, diverged: [{ target_file_id: 't-1', status: 'failed', failure_detail: HOSTILE }] };
    const out = verificationFragment(null, page).text;
    expect(out).toContain('Replay: 1 of 3 targets diverge.');
    expect(out).toContain('t-1</span> failed: &lt;script&gt;');
  });

  it('escapes file paths, diff lines and refusals', () => {
    const files = workspaceFragment({ status: 'ok', root: { path: HOSTILE }, total: 1, files: [{ path: HOSTILE, target_file_id: 'id', version: 1, state: 'in_sync' }] }).text;
    expect(files).not.toContain('<script');
    const diff = diffFragment({ status: 'ok', hunks: [{ header: '@@', lines: [`+${HOSTILE}`] }], attempts: [{ status: 'accepted', intent: HOSTILE }], next_hunk: null }, 0, null).text;
    expect(diff).not.toContain('<script');
    expect(diffFragment({ status: 'invalid_argument', failure_detail: HOSTILE }, 0, 9).text).toBe('<p class="error">invalid_argument: &lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });
});
