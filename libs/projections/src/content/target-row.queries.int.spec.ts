import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { ContentCache } from './content-cache';
import { lockTargetRow, readTargetRow } from './target-row.queries';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';

/** The text a read answered, or the refusal itself (which no text equals). */
const contentOf = (a: Result<'palimpsest_get_target'>) => (a.status === 'ok' ? a.current_content : a);

describe(`target lookup with and without a warm content cache on ${describeBackend}`, () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());

  it('a cold process reads the same text the writer cached, including chunked and empty texts', async () => {
    const big = `${'x'.repeat(40_000)}😀${'y'.repeat(40_000)}\n`;
    for (const text of ['', 'alpha 😀 beta\n', big]) {
      const id = await h.target(text);
      await h.call('palimpsest_submit_replacement', { target_file_id: id, intent: 'x', expected_target_version: 0, replacement: `${text}tail\n` });
      const cold = appContext(h.testDb.db, { contents: new ContentCache() });
      const read = await readTargetRow(cold.db, id, cold.contents);
      expect(read).toMatchObject({ version: 1, content: `${text}tail\n` });
      expect(read!.chunks.join('')).toBe(`${text}tail\n`);
      const locked = await h.testDb.db.transaction((tx) => lockTargetRow(tx, id, new ContentCache()));
      expect(locked!.content).toBe(`${text}tail\n`);
      const viaDispatch = await dispatch(cold, 'palimpsest_get_target', { target_file_id: id });
      expect(contentOf(viaDispatch)).toBe(`${text}tail\n`);
    }
  });

  it('a stale cache entry for an older version is never served', async () => {
    const id = await h.target('one\n');
    const other = appContext(h.testDb.db, { contents: new ContentCache() });
    expect(contentOf(await dispatch(other, 'palimpsest_get_target', { target_file_id: id }))).toBe('one\n');
    await h.call('palimpsest_submit_replacement', { target_file_id: id, intent: 'x', expected_target_version: 0, replacement: 'two\n' });
    expect(contentOf(await dispatch(other, 'palimpsest_get_target', { target_file_id: id }))).toBe('two\n');
  });
});
