import { randomUUID } from 'node:crypto';
import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { AFTER_HASH_MISMATCH, ReplayDivergence } from '@palimpsest/core/target/replay-divergence';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { rebuildProjections } from './rebuild-projections';
import { readModelDigests } from './read-model-digest';

describe(`replay and rebuild on ${describeBackend}`, () => {
  let h: AppHarness;
  const ids: string[] = [];

  beforeAll(async () => {
    h = await createAppHarness();
    for (let t = 0; t < 3; t++) {
      const id = await h.target(`title ${t}\r\nbody 😀 alpha\r\n`);
      ids.push(id);
      await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'a', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'beta' }] });
      await h.call('palimpsest_submit_operations', {
        target_file_id: id, intent: 'b', expected_target_version: 1,
        operations: [{ op: 'span', start: 0, end: 5, expected_text: 'title', replace: 'Title', expected_after: ' ' }],
      });
      await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'stale', expected_target_version: 0, edits: [{ match: 'x', replace: 'y' }] });
      await h.call('palimpsest_save', { target_file_id: id, expected_target_version: 2 });
      await h.call('palimpsest_submit_replacement', { target_file_id: id, intent: 'c', expected_target_version: 2, replacement: `new ${t}\n` });
    }
  });
  afterAll(() => h.dispose());

  it('replays every target to its materialized state, dispatching on each recorded runtime', async () => {
    for (const id of ids) {
      const r = await h.call('palimpsest_replay', { target_file_id: id });
      expect(r).toMatchObject({
        status: 'success', reconstructed_version: 3, current_version: 3, accepted_transactions_replayed: 3,
        materialized_state_matches: true,
        materialized_state_checks: { content_matches: true, stored_hash_matches: true, recomputed_hash_matches: true, version_matches: true },
      });
    }
    const runtimes = await h.testDb.db.query('SELECT DISTINCT runtime_version FROM attempts WHERE status = $1 ORDER BY 1', ['accepted']);
    expect(runtimes.rows.map((r: any) => r.runtime_version)).toEqual(['patchdiff-mvp-0.2.2', 'patchdiff-mvp-0.4.0', 'patchdiff-mvp-0.5.0']);
  });

  it('rebuilds every read model from the events and proves it equal', async () => {
    const before = await readModelDigests(h.testDb.db);
    const report = await rebuildProjections(h.testDb.db);
    expect(report).toMatchObject({ equal: true, compared: 3, streams: 3, differing: [], missing: [], extra: [] });
    expect(report.events).toBe(3 * 6);
    expect(await readModelDigests(h.testDb.db)).toEqual(before);
  });

  it('rebuilds a many-chunk text edited at both ends in one transaction (only the edited chunks are rewritten)', async () => {
    const lines = Array.from({ length: 12_000 }, (_, i) => `line ${i} ${'x'.repeat(i % 17)}`).join('\n');
    const id = await h.target(`${lines}\n`);
    const text = `${lines}\n`;
    const end = text.lastIndexOf('line 11999');
    const r = await h.call('palimpsest_submit_operations', {
      target_file_id: id, intent: 'both ends', expected_target_version: 0,
      operations: [
        { op: 'span', start: end, end: end + 4, expected_text: 'line', replace: 'LINE' },
        { op: 'span', start: 0, end: 4, expected_text: 'line', replace: 'LINE' },
      ],
    });
    expect(r).toMatchObject({ status: 'accepted' });
    const before = await readModelDigests(h.testDb.db);
    const report = await rebuildProjections(h.testDb.db);
    expect(report).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
    expect(await readModelDigests(h.testDb.db)).toEqual(before);
    expect(await h.count(`SELECT count(*) FROM target_chunks WHERE target_id = '${id}'`)).toBeGreaterThan(4);
    expect(await h.call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', materialized_state_matches: true });
  });

  it('detects a target row tampered with in SQL, and rebuild repairs the read model', async () => {
    const victim = ids[1];
    await h.testDb.db.query(`UPDATE target_chunks SET body = body || 'tamper' WHERE target_id = $1 AND chunk_index = 0`, [victim]);
    const r = await h.call('palimpsest_replay', { target_file_id: victim });
    expect(r).toMatchObject({
      status: 'success', materialized_state_matches: false,
      materialized_state_checks: { content_matches: false, stored_hash_matches: true, recomputed_hash_matches: false, version_matches: true },
    });
    const report = await rebuildProjections(h.testDb.db);
    expect(report).toMatchObject({ equal: false, differing: [victim] });
    expect(await h.call('palimpsest_replay', { target_file_id: victim })).toMatchObject({ materialized_state_matches: true });
  });

  it('refuses to rewrite history: events are append-only', async () => {
    await expect(h.testDb.db.query(`UPDATE events SET data = '{}'::jsonb`)).rejects.toThrow();
    await expect(h.testDb.db.query(`DELETE FROM events`)).rejects.toThrow();
  });
});

describe(`rebuild of a log holding a tampered acceptance on ${describeBackend}`, () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());

  it('fails, naming the first acceptance whose effects do not give its after_hash, though the text is checked only at the end', async () => {
    const id = await h.target('alpha beta gamma\n');
    await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'a', expected_target_version: 0, edits: [{ match: 'beta', replace: 'BETA' }] });
    const stream = targetStreamId(id);
    const { rows } = await h.testDb.db.query<{ data: Record<string, any>; schema_version: number }>(
      `SELECT data, schema_version FROM events WHERE stream_id = $1 AND event_type = 'ProposalAccepted'`,
      [stream],
    );
    const accepted = rows[0]!.data;
    // Two more acceptances appended behind the store's back: the first inserts a 'Z' its after_hash (the text
    // at version 1) does not account for, the second changes nothing and records that same hash.
    const tampered = { ...accepted, attempt_id: randomUUID(), before_version: 1, after_version: 2, before_hash: accepted.after_hash, effects: [{ start: 0, end: 0, inserted: 'Z' }] };
    const after = { ...accepted, attempt_id: randomUUID(), before_version: 2, after_version: 3, before_hash: accepted.after_hash, effects: [] };
    for (const [version, data] of [[3, tampered], [4, after]] as const) {
      await h.testDb.db.query(
        // Behind the store's back: a 32-byte link of its own (the CHECK wants one), not the stream's chain.
        `INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, recorded_at, chain_hash)
         VALUES ($1, $2, 'ProposalAccepted', $3, $4::jsonb, now(), sha256(convert_to($4::text, 'UTF8')))`,
        [stream, version, rows[0]!.schema_version, JSON.stringify(data)],
      );
    }
    const failure = await rebuildProjections(h.testDb.db).then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ReplayDivergence);
    expect(failure).toMatchObject({ attemptId: tampered.attempt_id, reason: AFTER_HASH_MISMATCH });
    // Nothing was rebuilt: the read models are as they were.
    expect(await h.call('palimpsest_get_target', { target_file_id: id })).toMatchObject({ version: 1, current_content: 'alpha BETA gamma\n' });
  });
});
