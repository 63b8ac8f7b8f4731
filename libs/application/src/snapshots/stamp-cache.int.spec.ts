import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { diskFiles } from './disk-files';
import { stampCacheOf, tickOf } from './stamp-cache';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('snapshot captures hash only the files whose stamp changed, never trusting a racy one', () => {
  let dir: string;
  let root: WorkspaceRoot;
  const hashes = async () => {
    const read = await diskFiles(root);
    if (!read.ok) throw new Error('capture refused');
    return Object.fromEntries(read.files.map((f) => [f.path, f.sha256]));
  };
  const hashed = () => stampCacheOf(root).hashed;
  /** Rewrites a file in place with content of the same length, then gives it back the mtime it had: its stamp is unchanged. */
  const rewriteKeepingStamp = (path: string, text: string) => {
    const before = statSync(join(dir, path));
    writeFileSync(join(dir, path), text);
    utimesSync(join(dir, path), before.atime, before.mtime);
    const after = statSync(join(dir, path));
    expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-stamps-'));
    root = openWorkspaceRoot(dir);
  });
  afterEach(() => {
    root.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves unchanged old files from the cache and re-hashes the one edited, and a deleted one is gone', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ['a.ts', 'b.ts', 'c.md']) {
      writeFileSync(join(dir, name), `${name}\n`);
      utimesSync(join(dir, name), hourAgo, hourAgo);
    }
    expect(await hashes()).toEqual({ 'a.ts': sha('a.ts\n'), 'b.ts': sha('b.ts\n'), 'c.md': sha('c.md\n') });
    expect(hashed()).toBe(3);
    expect(await hashes()).toEqual({ 'a.ts': sha('a.ts\n'), 'b.ts': sha('b.ts\n'), 'c.md': sha('c.md\n') });
    expect(hashed()).toBe(3);
    writeFileSync(join(dir, 'b.ts'), 'b.ts, edited\n');
    rmSync(join(dir, 'c.md'));
    expect(await hashes()).toEqual({ 'a.ts': sha('a.ts\n'), 'b.ts': sha('b.ts, edited\n') });
    expect(hashed()).toBe(4);
  });

  it('re-hashes a file written within the timestamp tick of its capture, even when a same-length rewrite keeps its stamp', async () => {
    // Within the tick of the read on a loaded machine too: an mtime just ahead of the clock (as a write in the
    // tick the read starts in, or a skewed clock, gives), with a fraction of a second (the fine tick applies).
    const ms = Date.now() + 1_000;
    const now = (ms % 1000 === 0 ? ms + 7 : ms) / 1000;
    writeFileSync(join(dir, 'racy.ts'), 'export const v = 1;\n');
    utimesSync(join(dir, 'racy.ts'), now, now);
    expect(tickOf(statSync(join(dir, 'racy.ts')).mtimeMs)).toBe(20);
    expect(await hashes()).toEqual({ 'racy.ts': sha('export const v = 1;\n') });
    rewriteKeepingStamp('racy.ts', 'export const v = 2;\n');
    expect(await hashes()).toEqual({ 'racy.ts': sha('export const v = 2;\n') });
    expect(hashed()).toBe(2);
  });

  it('keeps trusting a stamp recorded well after its mtime: the cache is what answers (as the index of git does)', async () => {
    const old = new Date(Date.now() - 60_000 + 250);
    writeFileSync(join(dir, 'settled.ts'), 'export const v = 1;\n');
    utimesSync(join(dir, 'settled.ts'), old, old);
    await hashes();
    expect(hashed()).toBe(1);
    rewriteKeepingStamp('settled.ts', 'export const v = 2;\n');
    await hashes();
    expect(hashed()).toBe(1);
  });

  it('takes a whole-second mtime for a coarse clock: racy for two seconds', () => {
    expect(tickOf(1_700_000_000_000)).toBe(2_000);
    expect(tickOf(1_700_000_000_123.5)).toBe(20);
  });
});
