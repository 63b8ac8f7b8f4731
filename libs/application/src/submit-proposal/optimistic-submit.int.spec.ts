import { replayTarget } from '@palimpsest/projections/replay/replay-target';
import type { Db, QueryResult, Tx } from '@palimpsest/store/db';
import { ForwardingDb } from '@palimpsest/store/forwarding-db';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { WakeNotifier } from '@palimpsest/store/wake-notifier';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

/** Counts what reaches the database: statements outside transactions, and transactions. */
class CountingDb extends ForwardingDb {
  statements = 0;
  transactions = 0;

  override query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    this.statements++;
    return super.query<R>(text, params);
  }

  override transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.transactions++;
    return super.transaction(fn);
  }

  reset(): void {
    this.statements = 0;
    this.transactions = 0;
  }
}

type Answer = Record<string, any>;
const submit = (ctx: AppContext, args: Record<string, unknown>) => dispatch(ctx, 'palimpsest_submit_edits', args) as Promise<Answer>;

/**
 * The one-statement commit decided on the process's last committed row. Two contexts on one database
 * stand for two processes: each has its own cache, so each can hold a head the other has moved.
 */
describe(`optimistic submissions on ${describeBackend}`, () => {
  let h: AppHarness;
  let counting: CountingDb;
  let a: AppContext;
  let b: AppContext;

  beforeAll(async () => {
    h = await createAppHarness();
    counting = new CountingDb(h.testDb.db as Db);
    a = appContext(counting, { wakes: new WakeNotifier(h.testDb.db) }); // count the commands' statements only
    b = appContext(h.testDb.db);
  });
  afterAll(() => h.dispose());

  const attemptsOf = (id: string) => h.count('SELECT count(*) FROM attempts WHERE target_id = $1', [id]);
  const textOf = async (id: string) => (await dispatch(b, 'palimpsest_export_target', { target_file_id: id, format: 'canonical_lf' }) as Answer).content;
  const verified = async (id: string) => (await replayTarget(h.testDb.db, id))?.materialized_state_matches;

  it('commits a submit on a known head with one statement and no transaction', async () => {
    const id = (await dispatch(a, 'palimpsest_initialize_target', { filename: 'one.md', content: 'one two three\n' }) as Answer).target_file_id;
    counting.reset();
    const r = await submit(a, { target_file_id: id, intent: 'x', expected_target_version: 0, edits: [{ match: 'two', replace: '2' }] });
    expect(r).toMatchObject({ status: 'accepted', current_version: 1 });
    expect({ statements: counting.statements, transactions: counting.transactions }).toEqual({ statements: 1, transactions: 0 });
    const rejected = await submit(a, { target_file_id: id, intent: 'x', expected_target_version: 0, edits: [{ match: 'one', replace: '1' }] });
    expect(rejected).toMatchObject({ status: 'rejected', failure_reason: 'target_version_mismatch', current_version: 1 });
    expect({ statements: counting.statements, transactions: counting.transactions }).toEqual({ statements: 2, transactions: 0 });
    expect(await attemptsOf(id)).toBe(2);
    expect(await verified(id)).toBe(true);
  });

  it('a head another process moved: nothing is written by the stale attempt, the locked path decides afresh', async () => {
    const id = (await dispatch(a, 'palimpsest_initialize_target', { filename: 'two.md', content: 'red green blue\n' }) as Answer).target_file_id;
    await submit(a, { target_file_id: id, intent: 'a', expected_target_version: 0, edits: [{ match: 'red', replace: 'RED' }] });
    await submit(b, { target_file_id: id, intent: 'b', expected_target_version: 1, edits: [{ match: 'green', replace: 'GREEN' }] });
    counting.reset();
    // a still believes version 1 with "green" present; the row is at version 2.
    const stale = await submit(a, { target_file_id: id, intent: 'a', expected_target_version: 1, edits: [{ match: 'blue', replace: 'BLUE' }] });
    expect(stale).toMatchObject({ status: 'rejected', failure_reason: 'target_version_mismatch', current_version: 2 });
    expect(counting.transactions).toBe(1); // the optimistic statement failed, the locked path answered
    const fresh = await submit(a, { target_file_id: id, intent: 'a', expected_target_version: 2, edits: [{ match: 'blue', replace: 'BLUE' }] });
    expect(fresh).toMatchObject({ status: 'accepted', current_version: 3 });
    expect(await textOf(id)).toBe('RED GREEN BLUE\n');
    expect(await attemptsOf(id)).toBe(4);
    expect(await h.count('SELECT count(*) FROM ledger WHERE target_id = $1', [id])).toBe(3);
    expect(await verified(id)).toBe(true);
  });

  it('a request key already used (by another process) is recovered, not accepted twice', async () => {
    const id = (await dispatch(a, 'palimpsest_initialize_target', { filename: 'three.md', content: 'x y z\n' }) as Answer).target_file_id;
    await submit(a, { target_file_id: id, intent: 'warm', expected_target_version: 0, edits: [{ match: 'x', replace: 'X' }] });
    const args = { target_file_id: id, intent: 'k', expected_target_version: 1, client_request_id: 'key-1', edits: [{ match: 'y', replace: 'Y' }] };
    const first = await submit(b, args);
    expect(first).toMatchObject({ status: 'accepted', deduplicated: false });
    // a's head is at stream version 2 (before b's acceptance): its key check and its version check both fail.
    const again = await submit(a, args);
    expect(again).toMatchObject({ status: 'accepted', deduplicated: true, attempt_id: first.attempt_id });
    // Now a's head is current: the keyed guard alone refuses the optimistic write.
    const third = await submit(a, args);
    expect(third).toMatchObject({ deduplicated: true, attempt_id: first.attempt_id });
    expect(await attemptsOf(id)).toBe(2);
    expect(await verified(id)).toBe(true);
  });

  it('resending a recorded request does not mark its target contended: the next write still takes one statement', async () => {
    const id = (await dispatch(a, 'palimpsest_initialize_target', { filename: 'resend.md', content: 'p q r\n' }) as Answer).target_file_id;
    const args = { target_file_id: id, intent: 'k', expected_target_version: 0, client_request_id: 'resend-1', edits: [{ match: 'p', replace: 'P' }] };
    expect(await submit(a, args)).toMatchObject({ status: 'accepted', deduplicated: false });
    for (let i = 0; i < 3; i++) expect(await submit(a, args)).toMatchObject({ status: 'accepted', deduplicated: true }); // e.g. after a crash
    counting.reset();
    const next = await submit(a, { target_file_id: id, intent: 'n', expected_target_version: 1, edits: [{ match: 'q', replace: 'Q' }] });
    expect(next).toMatchObject({ status: 'accepted', current_version: 2 });
    expect({ statements: counting.statements, transactions: counting.transactions }).toEqual({ statements: 1, transactions: 0 });
  });

  it('interleaved writers from two processes: every version accepted once, the log replays to the text', async () => {
    const id = (await dispatch(a, 'palimpsest_initialize_target', { filename: 'four.md', content: '@@0@@\n' }) as Answer).target_file_id;
    const known = { v: 0 };
    const writer = async (ctx: AppContext) => {
      for (let i = 0; i < 20; i++) {
        const v = known.v;
        const r = await submit(ctx, { target_file_id: id, intent: 'w', expected_target_version: v, edits: [{ match: `@@${v}@@`, replace: `@@${v + 1}@@` }] });
        known.v = Math.max(known.v, r.current_version);
      }
    };
    await Promise.all([writer(a), writer(b), writer(a), writer(b)]);
    const accepted = await h.count(`SELECT count(*) FROM attempts WHERE target_id = $1 AND status = 'accepted'`, [id]);
    const target = await dispatch(b, 'palimpsest_get_target', { target_file_id: id }) as Answer;
    expect(target.version).toBe(accepted);
    expect(await textOf(id)).toBe(`@@${accepted}@@\n`);
    expect(await h.count('SELECT count(DISTINCT after_version) FROM attempts WHERE target_id = $1 AND status = $2', [id, 'accepted'])).toBe(accepted);
    expect(await verified(id)).toBe(true);
  });

  it('concurrent submits to many targets share statements, from two processes, and every target replays to its text', async () => {
    const ids: string[] = [];
    for (let t = 0; t < 12; t++) {
      ids.push((await dispatch(a, 'palimpsest_initialize_target', { filename: `many-${t}.md`, content: '@@0@@\n' }) as Answer).target_file_id);
    }
    for (const id of ids) await dispatch(b, 'palimpsest_read_target', { target_file_id: id }); // b knows every head too
    const known = new Map(ids.map((id) => [id, 0]));
    const writer = async (ctx: AppContext, mine: string[]) => {
      for (let i = 0; i < 10; i++) {
        for (const id of mine) {
          const v = known.get(id)!;
          const r = await submit(ctx, { target_file_id: id, intent: 'w', expected_target_version: v, edits: [{ match: `@@${v}@@`, replace: `@@${v + 1}@@` }] });
          known.set(id, Math.max(known.get(id)!, r.current_version));
        }
      }
    };
    // Twelve writers in one process, a target each, mixing shapes: keyed accepts, plain accepts, stale guards.
    const mixed = async (id: string) => {
      for (let i = 0; i < 10; i++) {
        const v = known.get(id)!;
        const stale = i % 3 === 2;
        const r = await submit(a, {
          target_file_id: id,
          intent: 'w',
          expected_target_version: stale ? v + 5 : v,
          edits: [{ match: `@@${v}@@`, replace: `@@${v + 1}@@` }],
          ...(i % 3 === 1 ? { client_request_id: `key-${id}-${i}` } : {}),
        });
        expect(r.status).toBe(stale ? 'rejected' : 'accepted');
        known.set(id, r.current_version);
      }
    };
    counting.reset();
    await Promise.all(ids.map((id) => mixed(id)));
    expect(counting.transactions).toBe(0);
    expect(counting.statements).toBeLessThan(12 * 10); // 120 submits, fewer round trips
    expect(await h.count(`SELECT count(*) FROM attempts WHERE target_id = ANY($1::uuid[]) AND status = 'rejected'`, [ids])).toBe(12 * 3);
    // Then b's writers go round all the targets as well, so heads move under a's batches.
    await Promise.all([...ids.map((id) => writer(a, [id])), writer(b, ids), writer(b, [...ids].reverse())]);
    for (const id of ids) {
      const accepted = await h.count(`SELECT count(*) FROM attempts WHERE target_id = $1 AND status = 'accepted'`, [id]);
      expect(await textOf(id)).toBe(`@@${accepted}@@\n`);
      expect(await h.count('SELECT count(DISTINCT after_version) FROM attempts WHERE target_id = $1 AND status = $2', [id, 'accepted'])).toBe(accepted);
      expect(await verified(id)).toBe(true);
    }
  });
});
