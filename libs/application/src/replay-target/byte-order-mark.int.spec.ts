import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

/**
 * A leading U+FEFF is text like any other: PGlite used to decode every result field with a
 * BOM-stripping TextDecoder, so the embedded store handed back documents one code point short
 * (scripts/pglite-keep-bom.cjs gives its reader ignoreBOM).
 */
describe(`a document that starts with U+FEFF (${describeBackend})`, () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());

  it('reads back, edits and replays with its byte-order mark', async () => {
    const id = await h.target('\uFEFF\uFEFFalpha\nbeta\n', 'bom.txt');
    expect(await h.call('palimpsest_read_target', { target_file_id: id })).toMatchObject({ text: '\uFEFF\uFEFFalpha\nbeta\n', total_chars: 13 });
    const edited = await h.call('palimpsest_submit_edits', {
      target_file_id: id,
      intent: 'rename beta',
      expected_target_version: 0,
      edits: [{ match: 'beta', replace: 'gamma' }],
    });
    expect(edited).toMatchObject({ status: 'accepted' });
    const read = await h.call('palimpsest_read_target', { target_file_id: id });
    expect([...read.text].slice(0, 3)).toEqual(['\uFEFF', '\uFEFF', 'a']);
    expect(await h.call('palimpsest_replay', { target_file_id: id })).toMatchObject({ materialized_state_matches: true });
  });

  it('keeps it through a raw text column and a parameter', async () => {
    const { rows } = await h.testDb.db.query<{ t: string }>(`SELECT $1::text AS t`, ['\uFEFFx']);
    expect(rows[0]!.t).toBe('\uFEFFx');
  });
});
