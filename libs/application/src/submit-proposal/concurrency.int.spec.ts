import { targetStreamId } from '@palimpsest/core/target/target.events';
import type { Db } from '@palimpsest/store/db';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

/**
 * Real concurrency through dispatch(). On PostgreSQL every client is its own Db with a pool of one
 * connection (as a separate process would be), so the races are between server sessions. On PGlite
 * (one in-process connection, transactions serialize) the same scenarios run as concurrent promises
 * whose awaits interleave, scaled down to 8 × 25 in scenario a.
 */

const onPostgres = describeBackend === 'postgres';
const CLIENTS = onPostgres ? 32 : 8;
const SUBMISSIONS_PER_CLIENT = onPostgres ? 100 : 25;
const DUPLICATES = 10;
const PARALLEL_TARGETS = 200;

type Answer = Record<string, any>;
const call = (ctx: AppContext, name: string, args: unknown) => dispatch(ctx, name, args) as Promise<Answer>;

/** The harness's database, addressed by URL, so other pools can connect to the same database. */
async function urlOf(db: Db): Promise<string> {
  const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${rows[0].name}`;
  return url.toString();
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
const marker = (version: number) => `@@${version}@@`;

describe(`concurrent submissions on ${describeBackend}`, () => {
  let h: AppHarness;
  /** One context per client: separate Dbs on PostgreSQL, the harness's Db on PGlite. */
  let clients: AppContext[];
  const ownDbs: Db[] = [];
  /** Errors the client pools report about idle connections; after close, DROP DATABASE … FORCE may still find some. */
  const poolErrors: string[] = [];
  let closing = false;

  beforeAll(async () => {
    h = await createAppHarness();
    if (onPostgres) {
      const url = await urlOf(h.testDb.db);
      const onError = (error: Error) => {
        if (!closing) poolErrors.push(error.message);
      };
      for (let i = 0; i < CLIENTS; i++) ownDbs.push(await openPostgresDb({ connectionString: url, poolMax: 1, onError }));
      clients = ownDbs.map((db) => appContext(db));
    } else {
      clients = range(1, CLIENTS).map(() => h.ctx);
    }
  }, 60_000);

  afterEach(() => expect(poolErrors).toEqual([]));

  afterAll(async () => {
    closing = true;
    await Promise.all(ownDbs.map((db) => db.close()));
    await h?.dispose();
  });

  it(`${CLIENTS} clients × ${SUBMISSIONS_PER_CLIENT} guarded submissions on one target: each version accepted exactly once`, async () => {
    const id = await h.target(`log\n${marker(0)}`);
    const total = CLIENTS * SUBMISSIONS_PER_CLIENT;

    /** Each client: read the version, submit one edit guarded by it. The edit is applicable at that version. */
    const runClient = async (ctx: AppContext, c: number) => {
      const answers: { tag: string; answer: Answer }[] = [];
      for (let i = 0; i < SUBMISSIONS_PER_CLIENT; i++) {
        const read = await call(ctx, 'palimpsest_get_target', { target_file_id: id });
        const v = read.version as number;
        const tag = `c${c}.${i}`;
        const answer = await call(ctx, 'palimpsest_submit_edits', {
          target_file_id: id,
          intent: tag,
          expected_target_version: v,
          edits: [{ match: marker(v), replace: `${tag}\n${marker(v + 1)}` }],
        });
        answers.push({ tag, answer });
      }
      return answers;
    };
    const answers = (await Promise.all(clients.map((ctx, c) => runClient(ctx, c)))).flat();

    expect(answers).toHaveLength(total);
    const accepted = answers.filter((a) => a.answer.status === 'accepted');
    const rejected = answers.filter((a) => a.answer.status !== 'accepted');
    for (const { answer } of rejected) {
      expect(answer).toMatchObject({ status: 'rejected', failure_reason: 'target_version_mismatch', deduplicated: false });
    }
    const n = accepted.length;
    expect(n).toBeGreaterThan(0);
    expect(rejected.length).toBeGreaterThan(0); // the clients really raced
    expect(accepted.map((a) => a.answer.version).sort((x, y) => x - y)).toEqual(range(1, n));

    const final = await h.call('palimpsest_get_target', { target_file_id: id });
    expect(final.version).toBe(n);
    // The text records the winners in version order: line k is the tag of the acceptance that made version k.
    const winners = new Map(accepted.map((a) => [a.answer.version as number, a.tag]));
    expect(final.current_content).toBe(['log', ...range(1, n).map((v) => winners.get(v)), marker(n)].join('\n'));

    // The attempt log: every answer is a row, and nothing else is.
    const rows = (
      await h.testDb.db.query(
        `SELECT attempt_id::text AS attempt_id, status, failure_reason, before_version, after_version
           FROM attempts WHERE target_id = $1`,
        [id],
      )
    ).rows;
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.attempt_id))).toEqual(new Set(answers.map((a) => a.answer.attempt_id)));
    const acceptedRows = rows.filter((r) => r.status === 'accepted');
    expect(acceptedRows).toHaveLength(n);
    expect(acceptedRows.every((r) => r.before_version === r.after_version - 1)).toBe(true);
    expect(acceptedRows.map((r) => r.after_version).sort((x, y) => x - y)).toEqual(range(1, n));
    expect(rows.filter((r) => r.status === 'rejected' && r.failure_reason === 'target_version_mismatch')).toHaveLength(total - n);

    // The manifest ledger: one change per acceptance, versions contiguous.
    const ledger = await h.testDb.db.query<{ after_version: number }>(
      'SELECT after_version FROM ledger WHERE target_id = $1 ORDER BY after_version',
      [id],
    );
    expect(ledger.rows.map((r) => r.after_version)).toEqual(range(1, n));

    // The stream: initialization plus one event per attempt, versions 1..total+1 without a gap.
    const events = await h.testDb.db.query<{ stream_version: number; event_type: string }>(
      'SELECT stream_version, event_type FROM events WHERE stream_id = $1 ORDER BY stream_version',
      [targetStreamId(id)],
    );
    expect(events.rows.map((r) => r.stream_version)).toEqual(range(1, total + 1));
    expect(events.rows.filter((r) => r.event_type === 'ProposalAccepted')).toHaveLength(n);
    expect(events.rows.filter((r) => r.event_type === 'ProposalRejected')).toHaveLength(total - n);

    const replay = await h.call('palimpsest_replay', { target_file_id: id });
    expect(replay).toMatchObject({
      status: 'success',
      materialized_state_matches: true,
      reconstructed_version: n,
      current_version: n,
      accepted_transactions_replayed: n,
    });
  }, 120_000);

  it(`the same client_request_id sent ${DUPLICATES} times at once: one acceptance, the rest recovered`, async () => {
    const id = await h.target('alpha beta\n');
    const args = {
      target_file_id: id,
      intent: 'Rename beta',
      expected_target_version: 0,
      client_request_id: 'same-key-1',
      edits: [{ match: 'beta', replace: 'BETA' }],
    };
    const senders = range(0, DUPLICATES - 1).map((i) => clients[i % clients.length]);
    const answers = await Promise.all(senders.map((ctx) => call(ctx, 'palimpsest_submit_edits', args)));

    const fresh = answers.filter((a) => a.deduplicated === false);
    const recovered = answers.filter((a) => a.deduplicated === true);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ status: 'accepted', version: 1, client_request_id: 'same-key-1' });
    expect(recovered).toHaveLength(DUPLICATES - 1);
    for (const answer of recovered) {
      expect(answer).toMatchObject({
        status: 'accepted',
        attempt_id: fresh[0].attempt_id,
        version: 1,
        after_hash: fresh[0].after_hash,
        current_version: 1,
        client_request_id: 'same-key-1',
      });
    }
    expect(await h.count('SELECT count(*) FROM attempts WHERE target_id = $1', [id])).toBe(1);
    expect(await h.count('SELECT count(*) FROM events WHERE stream_id = $1', [targetStreamId(id)])).toBe(2);
    const final = await h.call('palimpsest_get_target', { target_file_id: id });
    expect(final).toMatchObject({ version: 1, current_content: 'alpha BETA\n' });
  }, 60_000);

  it(`${PARALLEL_TARGETS} targets initialized and edited in parallel: no deadlock, no error, each at version 1`, async () => {
    const pair = async (k: number) => {
      const ctx = clients[k % clients.length];
      const created = await call(ctx, 'palimpsest_initialize_target', { filename: `t${k}.md`, content: `target ${k}\n` });
      expect(created).toMatchObject({ status: 'ok' });
      const id = created.target_file_id as string;
      const submitted = await call(ctx, 'palimpsest_submit_edits', {
        target_file_id: id,
        intent: 'bump',
        expected_target_version: 0,
        edits: [{ match: `target ${k}`, replace: `target ${k} edited` }],
      });
      return { k, id, submitted };
    };
    const settled = await Promise.allSettled(range(0, PARALLEL_TARGETS - 1).map(pair));
    const failures = settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason));
    expect(failures).toEqual([]);
    const done = settled.map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<typeof pair>>>).value);
    for (const { submitted } of done) expect(submitted).toMatchObject({ status: 'accepted', version: 1, current_version: 1 });

    const ids = done.map((d) => d.id);
    const rows = await h.testDb.db.query<{ target_id: string; version: number; content: string }>(
      `SELECT t.target_id::text AS target_id, t.version,
              (SELECT string_agg(c.body, '' ORDER BY c.chunk_index) FROM target_chunks c WHERE c.target_id = t.target_id) AS content
         FROM targets t WHERE t.target_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(rows.rows).toHaveLength(PARALLEL_TARGETS);
    const byId = new Map(rows.rows.map((r) => [r.target_id, r]));
    for (const { k, id } of done) expect(byId.get(id)).toMatchObject({ version: 1, content: `target ${k} edited\n` });
    expect(await h.count('SELECT count(*) FROM attempts WHERE target_id = ANY($1::uuid[])', [ids])).toBe(PARALLEL_TARGETS);

    for (const { id } of done.filter((_, i) => i % 20 === 0)) {
      const replay = await h.call('palimpsest_replay', { target_file_id: id });
      expect(replay).toMatchObject({ status: 'success', materialized_state_matches: true, reconstructed_version: 1 });
    }
  }, 60_000);
});
