import { sql } from '@palimpsest/store/sql-fragment';
import { AppendBatcher } from '@palimpsest/store/append-batcher';
import type { GuardedAppendSpec } from '@palimpsest/store/append-guarded-batch';
import { readStream } from '@palimpsest/store/read-stream';
import { countingSql, sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';

describe(`AppendBatcher (${describeBackend})`, () => {
  const store = useTestDb();

  beforeAll(async () => {
    await store.db.exec(`CREATE TABLE batcher_rows (id text PRIMARY KEY, v bigint NOT NULL, note text)`);
  });

  async function rows(count: number) {
    const ids = Array.from({ length: count }, () => uniqueStreamId('row'));
    for (const id of ids) await store.db.query('INSERT INTO batcher_rows (id, v) VALUES ($1, 0)', [id]);
    return ids;
  }

  /**
   * Stream `s-<id>` at 0 → 1, the row bumped alongside; guard: the row still at `at`. `noted` gives the
   * alongside write another shape; `v` null breaks the NOT NULL column (an error that is not a conflict).
   */
  const append = (id: string, opts: { at?: number; noted?: boolean; v?: number | null } = {}): GuardedAppendSpec => ({
    streamId: `s-${id}`,
    expectedVersion: 0,
    events: sampleEvents(1),
    alongside: () => {
      const v = opts.v === undefined ? 1 : opts.v;
      return [opts.noted ? sql`UPDATE batcher_rows SET v = ${v}, note = 'noted' WHERE id = ${id}` : sql`UPDATE batcher_rows SET v = ${v} WHERE id = ${id}`];
    },
    guard: sql`SELECT 1 FROM batcher_rows WHERE id = ${id} AND v = ${opts.at ?? 0} FOR UPDATE NOWAIT`,
  });

  const versions = async (ids: string[]) => Promise.all(ids.map(async (id) => (await readStream(store.db, `s-${id}`)).length));

  it('sends an append at once and alone when nothing is in flight', async () => {
    const [id] = await rows(1);
    const counting = countingSql(store.db);
    const result = await new AppendBatcher(counting).append(append(id!));
    expect(result?.nextExpectedVersion).toBe(1);
    expect(counting.count).toBe(1);
    expect(counting.texts[0]).toContain('inserted AS');
  });

  it('batches the appends that queue behind a statement in flight, and answers each with its own positions', async () => {
    const ids = await rows(9);
    const counting = countingSql(store.db);
    const seen = { committed: [] as number[], retried: [] as number[] };
    const observer = { committed: (n: number) => seen.committed.push(n), retried: (n: number) => seen.retried.push(n) };
    const batcher = new AppendBatcher(counting, { inFlight: 1, maxBatch: 8, observer });
    const results = await Promise.all(ids.map((id) => batcher.append(append(id))));
    expect(counting.count).toBe(2); // the first alone, the next eight together
    expect(seen).toEqual({ committed: [1, 8], retried: [] });
    expect(counting.texts[1]).toContain('inserted_7 AS');
    for (const [i, id] of ids.entries()) {
      expect((await readStream(store.db, `s-${id}`)).map((e) => e.globalPosition)).toEqual(results[i]!.positions);
    }
  });

  it('puts one shape in a batch, so batch texts repeat', async () => {
    const ids = await rows(5);
    const counting = countingSql(store.db);
    const batcher = new AppendBatcher(counting, { inFlight: 1, maxBatch: 8 });
    await Promise.all(ids.map((id, i) => batcher.append(append(id, { noted: i % 2 === 1 }))));
    expect(counting.count).toBe(3); // 0 alone; then the oldest queued (1) with 3, its shape; then 2 and 4
    expect(counting.texts[1]).toContain("note = 'noted'");
    expect(counting.texts[1]).toContain('inserted_1 AS');
    expect(counting.texts[2]).not.toContain("note = 'noted'");
    expect(counting.texts[2]).toContain('inserted_1 AS');
    expect(await versions(ids)).toEqual([1, 1, 1, 1, 1]);
  });

  it('when a guard refuses inside a batch, the others still commit and only that append is answered null', async () => {
    const ids = await rows(5);
    const seen = { committed: [] as number[], retried: [] as number[] };
    const observer = { committed: (n: number) => seen.committed.push(n), retried: (n: number) => seen.retried.push(n) };
    const batcher = new AppendBatcher(store.db, { inFlight: 1, maxBatch: 8, observer });
    const results = await Promise.all(ids.map((id, i) => batcher.append(append(id, { at: i === 3 ? 9 : 0 }))));
    expect(results.map((r) => r?.nextExpectedVersion ?? null)).toEqual([1, 1, 1, null, 1]);
    expect(seen).toEqual({ committed: [1, 1, 1, 1], retried: [4] }); // 0 alone; 1–4 as a batch, undone, then alone
    expect(await versions(ids)).toEqual([1, 1, 1, 0, 1]);
  });

  it('an error of one append reaches that append only', async () => {
    const ids = await rows(4);
    const seen: number[] = [];
    const batcher = new AppendBatcher(store.db, { inFlight: 1, maxBatch: 8, observer: { committed: () => undefined, retried: (n) => seen.push(n) } });
    const settled = await Promise.allSettled(ids.map((id, i) => batcher.append(append(id, { v: i === 2 ? null : 1 }))));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ code: '23502' });
    expect(seen).toEqual([3]); // 1–3 were sent as one batch, undone by the error, then one by one
    expect(await versions(ids)).toEqual([1, 1, 0, 1]);
  });

  it('a batch whose outcome is unknown (the connection failed under it) is not retried: each append gets the error', async () => {
    const ids = await rows(3);
    const lost = new Error('Connection terminated unexpectedly');
    const texts: string[] = [];
    const flaky = {
      query: (text: string, params?: unknown[]) => {
        texts.push(text);
        return text.includes('inserted_0 AS') ? Promise.reject(lost) : store.db.query(text, params);
      },
    };
    const batcher = new AppendBatcher(flaky, { inFlight: 1, maxBatch: 8, observer: { committed: () => undefined, retried: () => { throw new Error('not retried'); } } });
    const settled = await Promise.allSettled(ids.map((id) => batcher.append(append(id))));
    expect(settled.map((s) => (s.status === 'rejected' ? s.reason : 'ok'))).toEqual(['ok', lost, lost]);
    expect(texts).toHaveLength(2);
  });

  it('past maxQueue waiting appends, an append is answered null at once, and observers that throw change nothing', async () => {
    const ids = await rows(5);
    const throwing = { committed: () => { throw new Error('observer'); }, retried: () => undefined };
    const batcher = new AppendBatcher(store.db, { inFlight: 1, maxBatch: 8, maxQueue: 2, observer: throwing });
    const results = await Promise.all(ids.map((id) => batcher.append(append(id))));
    expect(results.map((r) => r?.nextExpectedVersion ?? null)).toEqual([1, 1, 1, null, null]);
    expect(await versions(ids)).toEqual([1, 1, 1, 0, 0]);
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => new AppendBatcher(store.db, { inFlight: 0 })).toThrow(/inFlight must be a positive integer, got 0/);
    expect(() => new AppendBatcher(store.db, { maxBatch: 1.5 })).toThrow(/maxBatch must be a positive integer/);
  });
});
