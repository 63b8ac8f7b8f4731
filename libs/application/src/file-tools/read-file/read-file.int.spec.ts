import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_RESULT_BYTES, sentBytes } from '@palimpsest/protocol/result-bytes';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../../test-support/workspace-harness';
import { expectPublishedResult, publishedSchema } from '../test-support/published-result';

describe(`read_file on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  let dir: string;
  let outside: string;
  const call = async (args: unknown, readOnly = false) => {
    const answer = (await dispatch(h.ctx, 'read_file', args, { readOnly })) as Record<string, any>;
    expectPublishedResult('read_file', answer);
    return answer;
  };

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-read-file-');
    dir = h.dir;
    outside = mkdtempSync(join(tmpdir(), 'palimpsest-read-file-outside-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/lines.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join(''));
    writeFileSync(join(dir, 'crlf.txt'), 'one\r\ntwo 😀\r\nthree 𝄞');
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    // 600,000+ bytes over 6,001 lines of 100 bytes (3-byte characters included), then a 600 KB single line.
    writeFileSync(join(dir, 'big.txt'), Array.from({ length: 6001 }, (_, i) => `${String(i + 1).padStart(6, '0')} ${'€'.repeat(30)}${'x'.repeat(2)}\n`).join(''));
    writeFileSync(join(dir, 'one-line.txt'), '€'.repeat(200_001));
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));
    symlinkSync(outside, join(dir, 'linkdir'));
  });
  afterAll(async () => {
    rmSync(outside, { recursive: true, force: true });
    await h.dispose();
  });

  it('accepts the seed input schema exactly and refuses a wrong type as invalid params', async () => {
    expect(publishedSchema('read_file', 'params')({ path: 'a', offset: 1, limit: 2 })).toBe(true);
    for (const bad of [{ path: 3 }, { path: 'a', offset: 0 }, { path: 'a', limit: '2' }, { path: 'a', extra: true }, {}]) {
      const r = await call(bad);
      expect(r.status).toBe('invalid_argument');
    }
  });

  it('reads a whole file with totalLines, and continues by offset and limit', async () => {
    const all = await call({ path: 'src/lines.txt' });
    expect(all).toEqual({ status: 'ok', path: 'src/lines.txt', content: Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join(''), truncated: false, totalLines: 10 });
    const page = await call({ path: 'src/lines.txt', offset: 3, limit: 2 });
    expect(page).toEqual({ status: 'ok', path: 'src/lines.txt', content: 'line 3\nline 4\n', truncated: true, totalLines: 10 });
    const tail = await call({ path: 'src/lines.txt', offset: 9, limit: 5 });
    expect(tail).toMatchObject({ content: 'line 9\nline 10\n', truncated: false });
    expect(await call({ path: 'src/lines.txt', offset: 11 })).toMatchObject({ status: 'invalid_argument', code: 'INVALID_ARGUMENTS', argument: 'offset' });
    expect(await call({ path: 'empty.txt' })).toEqual({ status: 'ok', path: 'empty.txt', content: '', truncated: false, totalLines: 0 });
  });

  it('keeps CRLF and astral characters as on disk, under read_only too', async () => {
    expect(await call({ path: 'crlf.txt' }, true)).toEqual({ status: 'ok', path: 'crlf.txt', content: 'one\r\ntwo 😀\r\nthree 𝄞', truncated: false, totalLines: 3 });
    expect(await call({ path: 'crlf.txt', offset: 2, limit: 1 })).toMatchObject({ content: 'two 😀\r\n', truncated: true });
  });

  /** Every page of a file, following the continuation (offset) until nothing is left. */
  const readAll = async (path: string) => {
    const pages: Record<string, any>[] = [];
    for (let offset = 1; ; ) {
      const page = await call({ path, offset });
      pages.push(page);
      if (!page.truncated) return pages;
      offset += page.content.split('\n').length - 1;
    }
  };

  it('stops at the last whole line within MAX_READ_BYTES and the bytes it may send, and continues from the next line', async () => {
    const first = await call({ path: 'big.txt' });
    expect(first).toMatchObject({ truncated: true, totalLines: 6001 });
    expect(Buffer.byteLength(first.content)).toBeLessThanOrEqual(500_000);
    expect(sentBytes(first)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(first.content.endsWith('\n')).toBe(true);
    const lines = first.content.split('\n').length - 1;
    const next = await call({ path: 'big.txt', offset: lines + 1 });
    expect(next.content.startsWith(`${String(lines + 1).padStart(6, '0')} `)).toBe(true);
    expect((await readAll('big.txt')).map((p) => p.content).join('')).toBe(readFileSync(join(dir, 'big.txt'), 'utf8'));
    const single = await call({ path: 'one-line.txt' });
    expect(single).toMatchObject({ truncated: true, totalLines: 1 });
    expect(single.content).toBe('€'.repeat(single.content.length));
    expect(sentBytes(single)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
  });

  it('answers a 490 KB file of control characters within MAX_RESULT_BYTES as sent, and the rest by offset', async () => {
    const hostile = Buffer.alloc(490_000, 0);
    for (let i = 0; i < hostile.length; i++) hostile[i] = 1 + (i % 31); // U+0001..U+001F: every one escapes to \u00XX, LF and CR included
    writeFileSync(join(dir, 'control.txt'), hostile);
    writeFileSync(join(dir, 'control-one-line.txt'), Buffer.alloc(490_000, 0x01));
    const pages = await readAll('control.txt');
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(sentBytes(page)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(pages.map((p) => p.content).join('')).toBe(hostile.toString('utf8'));
    const single = await call({ path: 'control-one-line.txt' });
    expect(single.truncated).toBe(true);
    expect(sentBytes(single)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(sentBytes(single)).toBeGreaterThan(MAX_RESULT_BYTES - 20);
  });

  it('refuses links, escapes, missing files, directories and text that is not UTF-8', async () => {
    expect(await call({ path: 'link.txt' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_SYMLINK' });
    expect(await call({ path: 'linkdir/secret.txt' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_SYMLINK' });
    expect(await call({ path: '../x' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
    expect(await call({ path: join(outside, 'secret.txt') })).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
    expect(await call({ path: 'nope.txt' })).toMatchObject({ status: 'not_found', code: 'PATH_NOT_FOUND' });
    expect(await call({ path: 'src' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_NOT_A_FILE' });
    expect(await call({ path: 'latin1.txt' })).toMatchObject({ status: 'invalid_argument', code: 'invalid_text_encoding' });
  });

  it('records nothing: the read tools leave the database as they found it', async () => {
    const count = async () => (await h.testDb.db.query<{ n: string }>('SELECT count(*)::text AS n FROM events')).rows[0]!.n;
    await dispatch(h.ctx, 'palimpsest_initialize_target', { filename: 'crlf.txt', from_workspace: true });
    const before = await count();
    expect(Number(before)).toBeGreaterThan(0);
    await call({ path: 'src/lines.txt' });
    await dispatch(h.ctx, 'list_files', { recursive: true });
    await dispatch(h.ctx, 'grep', { pattern: 'line' });
    expect(await count()).toBe(before);
  });

  it('answers workspace_not_configured without a workspace', async () => {
    const bare = appContext(h.testDb.db, { workspace: null });
    expect(await dispatch(bare, 'read_file', { path: 'a' })).toMatchObject({ status: 'invalid_argument', code: 'workspace_not_configured' });
  });

  it('refuses a file over 16 MiB by its size, before reading it, with the limit and the listing of its directory as the next step', async () => {
    writeFileSync(join(dir, 'src/huge.log'), '');
    truncateSync(join(dir, 'src/huge.log'), 16 * 1024 * 1024 + 1); // sparse
    expect(await call({ path: 'src/huge.log', offset: 2, limit: 1 })).toMatchObject({
      status: 'invalid_argument',
      code: 'file_too_large',
      failure_detail: expect.stringContaining('16 MiB'),
      argument: 'path',
      path: 'src/huge.log',
      size: 16 * 1024 * 1024 + 1,
      limit: 16 * 1024 * 1024,
      next_actions: [{ operation: 'list_files', reason: expect.any(String), params: { path: 'src' } }],
    });
    rmSync(join(dir, 'src/huge.log'));
  });
});
