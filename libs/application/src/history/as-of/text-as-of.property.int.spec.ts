import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { HISTORY_SNAPSHOT_EVERY } from '@palimpsest/core/history/text-as-of';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../../test-support/app-harness';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** One random edit on code points: where (as fractions of the text), how much to cut, what to put in. */
const step = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  cut: fc.nat({ max: 6 }),
  insert: fc.string({ unit: fc.constantFrom('a', 'b', 'é', '😀', '\n', ' ', 'z'), maxLength: 8 }),
});

describe(`text as of a point, against the reference fold, on ${describeBackend}`, () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());

  /** Submit the steps as tx/2 spans; the reference texts by version, computed on code points apart from the engine. */
  async function history(initial: string, steps: { at: number; cut: number; insert: string }[]) {
    const id = await h.target(initial);
    const texts = [initial];
    for (const s of steps) {
      const cps = [...texts[texts.length - 1]!];
      const start = Math.floor(s.at * cps.length);
      const end = Math.min(cps.length, start + s.cut);
      if (start === end && s.insert === '') continue;
      const r = await h.call('palimpsest_submit_operations', {
        target_file_id: id, intent: 'random', expected_target_version: texts.length - 1,
        operations: [{ op: 'span', start, end, expected_text: cps.slice(start, end).join(''), replace: s.insert }],
      });
      expect(r.status).toBe('accepted');
      texts.push([...cps.slice(0, start), s.insert, ...cps.slice(end)].join(''));
    }
    return { id, texts };
  }

  async function expectAsOf(id: string, texts: string[], version: number) {
    const r = await h.call('palimpsest_get_target', { target_file_id: id, as_of: { version } });
    expect(r).toMatchObject({ status: 'ok', version, current_content: texts[version], current_hash: sha(texts[version]!) });
    expect(r.as_of).toMatchObject({ version, after_hash: sha(texts[version]!) });
    return r.as_of as { version: number; log_sequence: number; written_at: string; after_hash: string };
  }

  it('answers the reference text and its recorded hash at random versions, before and after a rebuild, without snapshots and after a checkpoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom('x', 'y', '\n', '€', '𝄞'), maxLength: 40 }),
        fc.array(step, { minLength: 0, maxLength: HISTORY_SNAPSHOT_EVERY * 2 + 10 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 4, maxLength: 8 }),
        async (initial, steps, picks) => {
          const { id, texts } = await history(initial, steps);
          const versions = [0, texts.length - 1, ...picks.map((p) => Math.floor(p * (texts.length - 1)))];
          const before = [];
          for (const v of versions) before.push(await expectAsOf(id, texts, v));
          const report = await rebuildProjections(h.testDb.db);
          expect(report.equal).toBe(true);
          for (const [i, v] of versions.entries()) expect(await expectAsOf(id, texts, v)).toEqual(before[i]);
          await h.testDb.db.query('DELETE FROM history_snapshots WHERE target_id = $1', [id]);
          for (const [i, v] of versions.entries()) expect(await expectAsOf(id, texts, v)).toEqual(before[i]);
          expect((await h.call('palimpsest_save', { target_file_id: id })).status).toBe('saved');
          for (const [i, v] of versions.entries()) expect(await expectAsOf(id, texts, v)).toEqual(before[i]);
        },
      ),
      { numRuns: 6 },
    );
  });

  it('keeps a copy every HISTORY_SNAPSHOT_EVERY versions, written with the acceptance and rebuilt from the log', async () => {
    const steps = Array.from({ length: HISTORY_SNAPSHOT_EVERY * 2 + 1 }, (_, i) => ({ at: 1, cut: 0, insert: `${i};` }));
    const { id } = await history('', steps);
    const kept = async () => (await h.testDb.db.query('SELECT version::int AS v FROM history_snapshots WHERE target_id = $1 ORDER BY version', [id])).rows.map((r: any) => r.v);
    expect(await kept()).toEqual([HISTORY_SNAPSHOT_EVERY, HISTORY_SNAPSHOT_EVERY * 2]);
    await rebuildProjections(h.testDb.db);
    expect(await kept()).toEqual([HISTORY_SNAPSHOT_EVERY, HISTORY_SNAPSHOT_EVERY * 2]);
  });

  it('reads as of a position and a time: the last version at or before it', async () => {
    const { id, texts } = await history('p', Array.from({ length: 6 }, (_, i) => ({ at: 1, cut: 0, insert: String(i) })));
    const points = [];
    for (let v = 0; v < texts.length; v++) points.push(await expectAsOf(id, texts, v));
    for (const p of points) {
      const byPosition = await h.call('palimpsest_read_target', { target_file_id: id, as_of: { position: p.log_sequence } });
      expect(byPosition).toMatchObject({ status: 'ok', version: p.version, text: texts[p.version], as_of: p });
      const next = points[p.version + 1];
      if (next && next.log_sequence > p.log_sequence + 1) {
        const between = await h.call('palimpsest_read_target', { target_file_id: id, as_of: { position: next.log_sequence - 1 } });
        expect(between.version).toBe(p.version);
      }
      const byTime = await h.call('palimpsest_read_lines', { target_file_id: id, as_of: { time: p.written_at } });
      const last = points.filter((q) => q.written_at <= p.written_at).pop()!;
      expect(byTime).toMatchObject({ status: 'ok', version: last.version, as_of: last });
    }
    const found = await h.call('palimpsest_find_occurrences', { target_file_id: id, text: '0', as_of: { version: 1 } });
    expect(found).toMatchObject({ status: 'ok', version: 1 });
    const exported = await h.call('palimpsest_export_target', { target_file_id: id, as_of: { version: 2 } });
    expect(exported).toMatchObject({ status: 'ok', version: 2, content: texts[2] });
  });

  it('refuses a point with no version, and a malformed point, at the edge', async () => {
    const id = await h.target('only\n');
    const ahead = await h.call('palimpsest_read_target', { target_file_id: id, as_of: { version: 5 } });
    expect(ahead).toMatchObject({ status: 'invalid_argument', code: 'as_of_out_of_range', current_version: 0 });
    const early = await h.call('palimpsest_get_target', { target_file_id: id, as_of: { time: '2000-01-01T00:00:00Z' } });
    expect(early).toMatchObject({ status: 'invalid_argument', code: 'as_of_out_of_range' });
    const both = await h.call('palimpsest_get_target', { target_file_id: id, as_of: { version: 0, position: 1 } });
    expect(both.status).toBe('invalid_argument');
  });
});
