import type { Db } from '@palimpsest/store/db';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { type AppContext } from '../../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '../../dispatch/dispatch';
import { createAppHarness, type AppHarness } from '../../test-support/app-harness';
import { candidateCalls, edit, expectOk, type Answer } from '../test-support/candidate-harness';

/**
 * Two candidates over overlapping targets, applied at once by 16 clients. On PostgreSQL each client
 * has its own connection (a separate session, as another process would); on PGlite the same calls
 * run as interleaved promises on its one connection.
 */

const onPostgres = describeBackend === 'postgres';
const CLIENTS = 16;
const ROUNDS = onPostgres ? 8 : 4;

async function urlOf(db: Db): Promise<string> {
  const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${rows[0].name}`;
  return url.toString();
}

describe(`two candidates over overlapping targets, ${CLIENTS} clients applying at once, on ${describeBackend}`, () => {
  let h: AppHarness;
  let clients: AppContext[];
  const own: Db[] = [];

  beforeAll(async () => {
    h = await createAppHarness();
    if (onPostgres) {
      const url = await urlOf(h.testDb.db);
      for (let i = 0; i < CLIENTS; i++) own.push(await openPostgresDb({ connectionString: url, poolMax: 1 }));
      clients = own.map((db) => appContext(db));
    } else {
      clients = Array.from({ length: CLIENTS }, () => h.ctx);
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(own.map((db) => db.close()));
    await h?.dispose();
  });

  it(`exactly one candidate applies per base, with no deadlock, consistent receipts and equal replay (${ROUNDS} rounds)`, async () => {
    const c = candidateCalls(h);
    const [x, y, z] = [await h.target('x0\n'), await h.target('y0\n'), await h.target('z0\n')];
    for (let round = 0; round < ROUNDS; round++) {
      const v = await Promise.all([x, y, z].map(async (id) => (await c.content(id)).version));
      const A = expectOk(await c.propose([[x, v[0]], [y, v[1]]], [edit(x, `x${round}`, `x${round + 1}`), edit(y, `y${round}`, `y${round + 1}`)])).candidate.id;
      // B lists the shared targets in the opposite order: only the sorted lock order keeps the two from deadlocking.
      const B = expectOk(
        await c.propose([[z, v[2]], [y, v[1]], [x, v[0]]], [edit(z, `z${round}`, `z${round + 1}`), edit(y, `y${round}`, `y${round + 1}`), edit(x, `x${round}`, `x${round + 1}`)]),
      ).candidate.id;
      const answers = await Promise.all(
        clients.map(async (ctx, i) => {
          const candidate = i % 2 === 0 ? A : B;
          const request_id = i % 4 < 2 ? `r${round}-${candidate}-shared` : `r${round}-${i}`;
          const answer = (await dispatch(ctx, 'palimpsest_change_apply', { candidate, expected_candidate_version: 1, request_id })) as Answer;
          return { candidate, request_id, answer };
        }),
      );
      const won = answers.filter((a) => a.answer.status === 'ok');
      const winner = won[0]?.candidate;
      expect(new Set(won.map((a) => a.candidate)).size).toBe(1);
      expect(new Set(won.map((a) => a.answer.receipt.receipt_id)).size).toBe(1);
      expect(won.filter((a) => !a.answer.replayed)).toHaveLength(1);
      for (const a of won.filter((w) => w.answer.replayed)) expect(a.request_id).toBe(won.find((w) => !w.answer.replayed)!.request_id);
      for (const { candidate, answer } of answers.filter((a) => a.answer.status !== 'ok')) {
        const expected = candidate === winner ? { code: 'precondition_failed', reason: 'candidate_applied' } : { code: 'conflict', reason: 'concurrent_candidate' };
        expect(answer.error).toMatchObject(expected);
      }
      const after = await Promise.all([x, y, z].map(async (id) => (await c.content(id)).version));
      const written = winner === A ? [1, 1, 0] : [1, 1, 1];
      expect(after).toEqual(v.map((n, i) => n + written[i]));
      if (winner === A) await h.call('palimpsest_submit_edits', { target_file_id: z, intent: 'catch up', expected_target_version: after[2], edits: [{ match: `z${round}`, replace: `z${round + 1}` }] });
    }
    for (const id of [x, y, z]) expect(await h.call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', materialized_state_matches: true });
    expect(await h.count(`SELECT count(*) FROM candidates WHERE state = 'applied'`)).toBe(ROUNDS);
    expect(await rebuildProjections(h.testDb.db)).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
  }, 120_000);
});
