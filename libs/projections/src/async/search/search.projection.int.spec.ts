import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { STORED_EVENT_COLUMNS, toStoredEvent } from '@palimpsest/store/stored-event';
import { catchUp } from '../catch-up';
import { catchUpFully } from '../test-support/catch-up-fully';
import { searchProjection, SEARCH_BODY_CHARS } from './search.projection';
import { searchPage, searchTotal } from './search.queries';

const page = (h: AppHarness, query: string, offset = 0) => searchPage(h.testDb.db, { query, rows: 10, offset, snippetChars: 300 });

describe(`the search projection (${describeBackend})`, () => {
  let h: AppHarness;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await createAppHarness();
    ids.fox = await h.target('The quick brown fox jumps over the lazy dog.\n', 'notes/animals.md');
    ids.ledger = await h.target('Quarterly ledger totals and the fox.\nMore lines about accounting.\n', 'reports/ledger.txt');
    ids.plain = await h.target('nothing to see here\n', 'plain.txt');
    const r = await h.call('palimpsest_submit_edits', {
      target_file_id: ids.plain, intent: 'Rename the zeppelin section', expected_target_version: 0,
      edits: [{ match: 'nothing', replace: 'everything' }],
    });
    expect(r.status).toBe('accepted');
  });
  afterAll(() => h.dispose());

  it('indexes every target once caught up, and a second catchUp applies nothing', async () => {
    const first = await catchUpFully(h.testDb.db, searchProjection, { batchSize: 2 });
    expect(first).toMatchObject({ owned: true });
    expect(first.applied).toBe(await h.count('SELECT count(*) FROM events'));
    expect(first.batches).toBeGreaterThan(1);
    expect(await h.count('SELECT count(*) FROM search_documents')).toBe(3);
    expect(await catchUp(h.testDb.db, searchProjection)).toEqual({ applied: 0, batches: 0, owned: true });
  });

  it('finds current text, filenames and accepted intents, ranked and with bounded snippets', async () => {
    const fox = await page(h, 'fox');
    expect(fox.map((r) => r.target_id).sort()).toEqual([ids.fox, ids.ledger].sort());
    expect(fox[0]!.rank).toBeGreaterThanOrEqual(fox[1]!.rank);
    expect(fox.find((r) => r.target_id === ids.fox)!.snippet).toContain('[[fox]]');
    expect((await page(h, 'animals')).map((r) => r.target_id)).toEqual([ids.fox]);
    expect((await page(h, 'ledger'))[0]).toMatchObject({ target_id: ids.ledger, filename: 'reports/ledger.txt' });
    expect((await page(h, 'zeppelin')).map((r) => r.target_id)).toEqual([ids.plain]);
    expect((await page(h, 'everything')).map((r) => r.target_id)).toEqual([ids.plain]);
    expect(await page(h, 'nothing')).toEqual([]);
    expect(await searchTotal(h.testDb.db, 'fox')).toBe(2);
    expect(await page(h, 'fox', 1)).toHaveLength(1);
  });

  it('follows later changes, and bounds the indexed text of a large target', async () => {
    const r = await h.call('palimpsest_submit_edits', {
      target_file_id: ids.fox, intent: 'Swap the animal', expected_target_version: 0,
      edits: [{ match: 'fox', replace: 'badger' }],
    });
    expect(r.status).toBe('accepted');
    const big = await h.target(`${'lorem ipsum '.repeat(SEARCH_BODY_CHARS / 6)}needle\n`, 'big.txt');
    expect(await catchUpFully(h.testDb.db, searchProjection)).toMatchObject({ owned: true });
    expect((await page(h, 'badger')).map((x) => x.target_id)).toEqual([ids.fox]);
    expect((await page(h, 'fox')).map((x) => x.target_id)).toEqual([ids.ledger]);
    expect((await page(h, 'lorem'))[0]).toMatchObject({ target_id: big, body_truncated: true });
    expect((await page(h, 'lorem'))[0]!.snippet.length).toBeLessThanOrEqual(300);
    expect(await page(h, 'needle')).toEqual([]);
  });

  it('keeps the intents of a batch that reaches a target behind its row (readAll order is not version order)', async () => {
    const accept = async (intent: string, version: number) => {
      const r = await h.call('palimpsest_submit_edits', {
        target_file_id: ids.ledger, intent, expected_target_version: version, edits: [{ match: `totals${'!'.repeat(version)}`, replace: `totals${'!'.repeat(version + 1)}` }],
      });
      expect(r.status).toBe('accepted');
    };
    await accept('Mark the walrus', 0);
    await accept('Mark the narwhal', 1);
    const { rows } = await h.testDb.db.query(
      `SELECT ${STORED_EVENT_COLUMNS} FROM events WHERE event_type = 'ProposalAccepted' AND data->>'target_id' = $1 ORDER BY global_position`,
      [ids.ledger],
    );
    const [walrus, narwhal] = rows.map(toStoredEvent);
    // The later version first, in a batch of its own, as readAll returns it when its writer took the smaller xid.
    for (const batch of [[narwhal!], [walrus!]]) await h.testDb.db.transaction((tx) => searchProjection.apply(tx, batch));
    expect((await page(h, 'walrus')).map((x) => x.target_id)).toEqual([ids.ledger]);
    expect((await page(h, 'narwhal')).map((x) => x.target_id)).toEqual([ids.ledger]);
    const row = await h.testDb.db.query(`SELECT last_position, updated_at FROM search_documents WHERE target_id = $1`, [ids.ledger]);
    expect(Number(row.rows[0].last_position)).toBe(narwhal!.globalPosition);
    expect(new Date(row.rows[0].updated_at).toISOString()).toBe(narwhal!.recordedAt);
  });
});
