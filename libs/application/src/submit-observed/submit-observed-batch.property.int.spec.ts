import fc from 'fast-check';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';

const TOOL = 'palimpsest_submit_observed_operations';
const cps = (s: string) => [...s];

/** A Markdown document of k = 1..4 sections with random bodies, and for each a set of cut points in its scope. */
const documents = fc.record({
  bodies: fc.array(fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é', '😀', '\n'), minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 4 }),
  points: fc.array(fc.uniqueArray(fc.nat(), { minLength: 2, maxLength: 6 }), { minLength: 4, maxLength: 4 }),
  replace: fc.string({ unit: fc.constantFrom('x', '€', '\n'), maxLength: 3 }),
  bad: fc.nat(),
});

describe(`observed batch over real bundles (property) on ${describeBackend}`, () => {
  let testDb: TestDb;
  let ctx: AppContext;
  const call = (name: string, args: unknown) => dispatch(ctx, name, args) as Promise<Record<string, any>>;
  const create = async (content: string) => (await call('palimpsest_initialize_target', { filename: 'doc.md', content })).target_file_id as string;

  beforeAll(async () => {
    testDb = await createTestDb();
    ctx = appContext(testDb.db, { workspace: null });
  });
  afterAll(() => testDb.dispose());

  it('a batch over k scopes gives the text of the equivalent absolute tx/2 transaction; no out-of-scope operation is accepted', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(documents, async ({ bodies, points, replace, bad }) => {
        // Blank lines keep the bodies out of heading syntax; each section is one scope.
        const content = bodies.map((b, i) => `## S${i}\n\n${b.replace(/[#\n]+/g, ' ').trim() || 'x'}\n`).join('\n');
        const [batchTarget, plainTarget] = [await create(content), await create(content)];
        const bundle = await call('palimpsest_observe_scope', { target_file_id: batchTarget, selections: bodies.map((_, i) => ({ symbol_name: `S${i}`, kind: 'section' })) });
        expect(bundle.status).toBe('observed_batch');
        const guards = { expected_target_version: 0, expected_current_hash: bundle.target_current_hash };
        const groups: { scope: any; operations: any[] }[] = bundle.scopes.map((s: any, i: number) => {
          const len = s.scope_length as number;
          const cuts = [...new Set(points[i]!.map((p) => p % (len + 1)))].sort((a, b) => b - a);
          const text = cps(content).slice(s.scope_start, s.scope_end);
          const operations = [];
          for (let j = 0; j + 1 < cuts.length; j += 2) operations.push({ op: 'span', start: cuts[j + 1], end: cuts[j], expected_text: text.slice(cuts[j + 1], cuts[j]).join(''), replace });
          return { scope: s, operations };
        }).filter((g: { operations: unknown[] }) => g.operations.length > 0);
        fc.pre(groups.length > 0);
        const absolute = [...groups].sort((a, b) => b.scope.scope_start - a.scope.scope_start)
          .flatMap((g) => g.operations.map((op) => ({ ...op, start: op.start + g.scope.scope_start, end: op.end + g.scope.scope_start })));

        // Out of scope first: a group whose span reaches past its scope's end is refused, nothing consumed.
        const victim = groups[bad % groups.length];
        const past = { op: 'span', start: 0, end: victim.scope.scope_length + 1, expected_text: '', replace: 'z' };
        const wire = (gs: typeof groups) => gs.map((g) => ({ observation_id: g.scope.observation_id, operations: g === victim ? [past] : g.operations }));
        const refused = await call(TOOL, { target_file_id: batchTarget, observation_bundle_id: bundle.bundle_id, intent: 'p', groups: wire(groups), ...guards, client_request_id: `p-${++n}` });
        expect(refused).toMatchObject({ status: 'rejected', diagnostic: { code: 'OPERATION_OUTSIDE_OBSERVED_SCOPE', group_index: groups.indexOf(victim) } });

        const batch = await call(TOOL, { target_file_id: batchTarget, observation_bundle_id: bundle.bundle_id, intent: 'p', groups: groups.map((g) => ({ observation_id: g.scope.observation_id, operations: g.operations })), ...guards, client_request_id: `p-${++n}` });
        const plain = await call('palimpsest_submit_operations', { target_file_id: plainTarget, intent: 'p', operations: absolute, expected_target_version: 0 });
        expect([batch.status, plain.status]).toEqual(['accepted', 'accepted']);
        expect(batch.after_hash).toBe(plain.after_hash);
        // The stored text too (its chunks are rewritten only where the batch says the text changed).
        const read = async (id: string) => (await call('palimpsest_read_target', { target_file_id: id, length: 100000 })).text;
        expect(await read(batchTarget)).toBe(await read(plainTarget));
        expect(batch).toMatchObject({ before_version: 0, version: 1, change_count: absolute.length });
      }),
      { numRuns: 15 },
    );
  });
});
