import { ALLOW_ALL } from '@palimpsest/core/policy/owner-policy';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest } from '../dispatch/dispatch';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

type Answer = Record<string, any>;

/** A stale expected_target_version with rebase: true, decided under the row lock through the effects since. */
describe(`rebase: true on ${describeBackend}`, () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());

  const base = 'alpha line\nbeta line\ngamma line\n';
  /** A target at version 2: "alpha" lengthened (before beta), then a line appended (after gamma). */
  async function movedTarget(): Promise<{ id: string; writers: string[] }> {
    const id = await h.target(base);
    const a = await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'w', expected_target_version: 0, edits: [{ match: 'alpha line', replace: 'ALPHA, a longer line' }] });
    const b = await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'w', expected_target_version: 1, edits: [{ match: 'gamma line\n', replace: 'gamma line\ndelta line\n' }] });
    return { id, writers: [a.attempt_id, b.attempt_id] };
  }
  const acceptedEvent = async (attemptId: string) =>
    (await h.testDb.db.query<{ schema_version: number; data: Answer }>(
      `SELECT schema_version, data FROM events WHERE event_type = 'ProposalAccepted' AND data->>'attempt_id' = $1`, [attemptId],
    )).rows[0]!;

  it('accepts a tx/2 span written at version 0, moved by what changed before it, recorded as rebased (schema 3)', async () => {
    const { id, writers } = await movedTarget();
    const answer = await h.call('palimpsest_submit_operations', {
      target_file_id: id, intent: 'beta', expected_target_version: 0, rebase: true,
      operations: [{ op: 'span', start: 11, end: 15, expected_text: 'beta', replace: 'BETA' }],
    });
    expect(answer).toMatchObject({ status: 'accepted', version: 3 });
    expect(answer.rebased).toEqual({ from_version: 0, through_attempts: 2, spans: [{ change_index: 1, from_start: 11, from_end: 15, start: 21, end: 25 }] });
    expect((await h.call('palimpsest_get_target', { target_file_id: id })).current_content).toBe('ALPHA, a longer line\nBETA line\ngamma line\ndelta line\n');
    const event = await acceptedEvent(answer.attempt_id);
    expect(event.schema_version).toBe(3);
    expect(event.data.rebased).toMatchObject({ from_version: 0, through_attempt_ids: writers, spans: [{ change_index: 1, from_start: 11, from_end: 15, start: 21, end: 25 }] });
    expect(JSON.parse(event.data.content).operations[0]).toMatchObject({ start: 21, end: 25 });
    // Replay re-runs the record as applied and reproduces every recorded effect.
    expect(await h.call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success' });
  });

  it('accepts tx/1 edits found again outside every range changed since', async () => {
    const { id } = await movedTarget();
    const args = { target_file_id: id, intent: 'beta', expected_target_version: 0, rebase: true, client_request_id: 'rebased-once', edits: [{ match: 'beta', replace: 'BETA' }] };
    const answer = await h.call('palimpsest_submit_edits', args);
    expect(answer).toMatchObject({ status: 'accepted', version: 3, rebased: { from_version: 0, through_attempts: 2, spans: [] } });
    expect((await acceptedEvent(answer.attempt_id)).data.rebased).toMatchObject({ from_version: 0, spans: [] });
    // The same key again: the recorded outcome, rebase included.
    expect(await h.call('palimpsest_submit_edits', args)).toMatchObject({ deduplicated: true, attempt_id: answer.attempt_id, rebased: answer.rebased });
  });

  it('rebases a tx/2 mixing spans and matches: spans move, matches are found again, both outside what changed', async () => {
    const { id } = await movedTarget();
    const answer = await h.call('palimpsest_submit_operations', {
      target_file_id: id, intent: 'mixed', expected_target_version: 0, rebase: true,
      operations: [
        { op: 'match', match: 'beta', replace: 'BETA' },
        { op: 'span', start: 16, end: 20, expected_text: 'line', replace: 'LINE' },
      ],
    });
    expect(answer).toMatchObject({ status: 'accepted', version: 3, rebased: { from_version: 0, spans: [{ change_index: 2, from_start: 16, from_end: 20, start: 26, end: 30 }] } });
    expect((await h.call('palimpsest_get_target', { target_file_id: id })).current_content).toBe('ALPHA, a longer line\nBETA LINE\ngamma line\ndelta line\n');
    const applied = JSON.parse((await acceptedEvent(answer.attempt_id)).data.content).operations;
    expect(applied).toMatchObject([{ op: 'match', match: 'beta' }, { op: 'span', start: 26, end: 30 }]);
    expect(await h.call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success' });
    // A match that now meets a later change stays stale, whatever its spans do.
    const stale = await h.call('palimpsest_submit_operations', {
      target_file_id: id, intent: 'mixed', expected_target_version: 1, rebase: true,
      operations: [{ op: 'match', match: 'delta', replace: 'D' }, { op: 'span', start: 0, end: 5, expected_text: 'ALPHA', replace: 'A' }],
    });
    expect(stale).toMatchObject({ status: 'rejected', failure_reason: 'target_version_mismatch' });
  });

  it('refuses as stale, naming the attempt, a change whose range a later acceptance wrote', async () => {
    const { id, writers } = await movedTarget();
    const tx2 = await h.call('palimpsest_submit_operations', {
      target_file_id: id, intent: 'alpha', expected_target_version: 0, rebase: true,
      operations: [{ op: 'span', start: 0, end: 5, expected_text: 'alpha', replace: 'A' }],
    });
    expect(tx2).toMatchObject({ status: 'rejected', failure_reason: 'target_version_mismatch' });
    expect(tx2.diagnostic).toMatchObject({ rebase: 'conflict', conflicting_attempts: [{ attempt_id: writers[0], version: 1 }] });
    // tx/1: "line\ndelta" exists only because of the second writer: its match lies in a changed range.
    const tx1 = await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', expected_target_version: 1, rebase: true, edits: [{ match: 'line\ndelta', replace: 'x' }] });
    expect(tx1.diagnostic).toMatchObject({ rebase: 'conflict', conflicting_attempts: [{ attempt_id: writers[1], version: 2 }] });
    // A whole replacement always meets every change since.
    const tx3 = await h.call('palimpsest_submit_replacement', { target_file_id: id, intent: 'r', expected_target_version: 1, replacement: 'new' });
    expect(tx3.failure_reason).toBe('target_version_mismatch');
  });

  it('is off by default, and on by default for a policy that says rebase: true', async () => {
    const { id } = await movedTarget();
    const args = { target_file_id: id, intent: 'beta', expected_target_version: 0, edits: [{ match: 'beta', replace: 'BETA' }] };
    const plain = await h.call('palimpsest_submit_edits', args);
    expect(plain).toMatchObject({ status: 'rejected', failure_reason: 'target_version_mismatch' });
    expect(plain.diagnostic.rebase).toBeUndefined();
    const byPolicy = (await dispatchRequest(h.ctx, 'palimpsest_submit_edits', args, { policy: { ...ALLOW_ALL, rebase: true } })) as Answer;
    expect(byPolicy.status).toBe('accepted');
    const optedOut = await h.call('palimpsest_submit_edits', { ...args, expected_target_version: 1, rebase: false, edits: [{ match: 'gamma', replace: 'G' }] });
    expect(optedOut.status).toBe('rejected');
    // A submission on the current version is not rebased, and its answer says nothing of it.
    const current = await h.call('palimpsest_submit_edits', { ...args, expected_target_version: 3, rebase: true, edits: [{ match: 'gamma', replace: 'G' }] });
    expect(current).toMatchObject({ status: 'accepted', version: 4 });
    expect(current.rebased).toBeUndefined();
  });
});
