import { spawnSync } from 'node:child_process';
import { linkSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkspacePathCode } from '@palimpsest/core/workspace/workspace-path';
import { openWorkspaceRoot, type WorkspaceRoot } from './workspace-root';
import { createHash } from 'node:crypto';
import { hashWorkspaceFile, hashWorkspaceFileBounded, MAX_TEXT_FILE_BYTES, readWorkspaceFile, readWorkspaceFileBounded } from './workspace-file-reader';

/**
 * The hostile corpus end to end, on real files: a tree inside the root, a secret outside it, and links
 * of every kind pointing from one to the other. Nothing may come back but the inside bytes.
 */
describe('readWorkspaceFile', () => {
  let tmp: string;
  let rootPath: string;
  let root: WorkspaceRoot;

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-ws-'));
    rootPath = join(tmp, 'root');
    const outside = join(tmp, 'outside');
    mkdirSync(join(rootPath, 'dir', 'deep'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'SECRET');
    writeFileSync(join(rootPath, 'notes.txt'), 'hello\r\nworld\n');
    writeFileSync(join(rootPath, 'dir', 'deep', 'inner.txt'), 'inner');
    writeFileSync(join(rootPath, 'empty.txt'), '');
    symlinkSync('notes.txt', join(rootPath, 'link-file'));
    symlinkSync('dir', join(rootPath, 'link-dir'));
    symlinkSync('deep', join(rootPath, 'dir', 'link-deep'));
    symlinkSync(join(outside, 'secret.txt'), join(rootPath, 'escape-file'));
    symlinkSync(outside, join(rootPath, 'escape-dir'));
    symlinkSync('../../outside/secret.txt', join(rootPath, 'dir', 'relative-escape'));
    symlinkSync('nowhere', join(rootPath, 'dangling'));
    symlinkSync('.', join(rootPath, 'dir', 'self'));
    spawnSync('mkfifo', [join(rootPath, 'fifo')]);
    root = openWorkspaceRoot(rootPath);
  });
  afterAll(() => {
    root.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const HOSTILE: Array<[string, unknown, WorkspacePathCode, number?]> = [
    ['parent', '..', 'PATH_ESCAPE', 0],
    ['a sibling through the parent', '../outside/secret.txt', 'PATH_ESCAPE', 0],
    ['climbing past the root', 'dir/../../outside/secret.txt', 'PATH_ESCAPE', 2],
    ['a/../../b', 'a/../../b', 'PATH_ESCAPE', 2],
    ['absolute, outside', '/etc/passwd', 'PATH_ESCAPE'],
    ['NUL', 'notes.txt\u0000.png', 'PATH_INVALID'],
    ['trailing slash', 'dir/', 'PATH_INVALID'],
    ['empty', '', 'PATH_INVALID'],
    ['backslash', 'dir\\deep\\inner.txt', 'PATH_INVALID'],
    ['device name', 'dir/CON.txt', 'PATH_RESERVED', 1],
    ['stream', 'notes.txt:hidden', 'PATH_RESERVED', 0],
    ['symlinked file (to a file inside)', 'link-file', 'PATH_SYMLINK', 0],
    ['symlinked ancestor (to a directory inside)', 'link-dir/deep/inner.txt', 'PATH_SYMLINK', 0],
    ['symlinked inner ancestor', 'dir/link-deep/inner.txt', 'PATH_SYMLINK', 1],
    ['symlink to a file outside', 'escape-file', 'PATH_SYMLINK', 0],
    ['symlink to a directory outside', 'escape-dir/secret.txt', 'PATH_SYMLINK', 0],
    ['relative symlink climbing out', 'dir/relative-escape', 'PATH_SYMLINK', 1],
    ['dangling symlink', 'dangling', 'PATH_SYMLINK', 0],
    ['symlink to its own directory', 'dir/self/deep/inner.txt', 'PATH_SYMLINK', 1],
    ['missing file', 'missing.txt', 'PATH_NOT_FOUND', 0],
    ['missing ancestor', 'nope/inner.txt', 'PATH_NOT_FOUND', 0],
    ['a file as an ancestor', 'notes.txt/inner.txt', 'PATH_NOT_FOUND', 0],
    ['a directory', 'dir/deep', 'PATH_NOT_A_FILE', 1],
    ['a FIFO (the read does not hang)', 'fifo', 'PATH_NOT_A_FILE', 0],
  ];

  it.each(HOSTILE)('refuses %s', (...row) => {
    const [, path, code, component] = row;
    const refused = { kind: 'refused', refusal: { code, message: expect.any(String), ...(component === undefined ? {} : { component }) } };
    expect(readWorkspaceFile(root, path)).toEqual(refused);
    expect(hashWorkspaceFile(root, path)).toEqual(refused); // the hashing read walks the same way
  });

  it('hashes a file larger than its read chunk without holding it whole, as the whole-file hash would', () => {
    const big = Buffer.alloc(3 * (1 << 20) + 17, 'palimpsest ');
    writeFileSync(join(rootPath, 'dir', 'big.bin'), big);
    expect(hashWorkspaceFile(root, 'dir/big.bin')).toEqual({ kind: 'hashed', sha256: createHash('sha256').update(big).digest('hex'), bytes: big.length });
    expect(hashWorkspaceFile(root, 'empty.txt')).toMatchObject({ bytes: 0, sha256: createHash('sha256').update('').digest('hex') });
  });

  it('refuses an absolute path even when it names a file inside the root', () => {
    expect(readWorkspaceFile(root, join(rootPath, 'notes.txt'))).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_ESCAPE' } });
  });

  it.each([
    ['notes.txt', 'hello\r\nworld\n'],
    ['dir/deep/inner.txt', 'inner'],
    ['empty.txt', ''],
  ])('reads %s: its exact bytes and the identity of the file they came from', (path, content) => {
    const read = readWorkspaceFile(root, path);
    const stats = lstatSync(join(rootPath, path), { bigint: true });
    expect(read).toEqual({
      kind: 'read',
      path,
      bytes: Buffer.from(content),
      identity: { dev: stats.dev.toString(), ino: stats.ino.toString(), size: content.length, mode: Number(stats.mode) },
    });
  });

  it.each(['dir//deep/inner.txt', './dir/./deep/inner.txt', 'dir/deep/../deep/inner.txt'])('reads %s as its canonical path', (path) => {
    expect(readWorkspaceFile(root, path)).toMatchObject({ kind: 'read', path: 'dir/deep/inner.txt', bytes: Buffer.from('inner') });
  });

  it('reads a hard link as the file it is (out of reach: documented, not refused)', () => {
    linkSync(join(tmp, 'outside', 'secret.txt'), join(rootPath, 'hard-link'));
    const read = readWorkspaceFile(root, 'hard-link');
    expect(read.kind === 'read' && read.identity.ino).toBe(lstatSync(join(tmp, 'outside', 'secret.txt')).ino.toString());
  });

  it('bounded: reads and hashes a file up to the limit as the unbounded forms do, and refuses a larger one by its size alone', async () => {
    expect(await readWorkspaceFileBounded(root, 'notes.txt')).toEqual(readWorkspaceFile(root, 'notes.txt'));
    const hashed = hashWorkspaceFile(root, 'notes.txt');
    expect(await hashWorkspaceFileBounded(root, 'notes.txt')).toEqual(hashed);
    expect(await hashWorkspaceFileBounded(root, 'empty.txt')).toEqual(hashWorkspaceFile(root, 'empty.txt'));
    writeFileSync(join(rootPath, 'huge.bin'), '');
    truncateSync(join(rootPath, 'huge.bin'), 3 * 1024 ** 3); // sparse: reading it whole would take seconds and 3 GB
    const tooLarge = { kind: 'too_large', path: 'huge.bin', size: 3 * 1024 ** 3, limit: MAX_TEXT_FILE_BYTES };
    expect(await readWorkspaceFileBounded(root, 'huge.bin')).toEqual(tooLarge);
    expect(await hashWorkspaceFileBounded(root, 'huge.bin')).toEqual(tooLarge);
    expect(await readWorkspaceFileBounded(root, 'notes.txt', 4)).toMatchObject({ kind: 'too_large', size: 13, limit: 4 });
    expect(await readWorkspaceFileBounded(root, 'link-file')).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_SYMLINK' } });
    rmSync(join(rootPath, 'huge.bin'));
  });
});
