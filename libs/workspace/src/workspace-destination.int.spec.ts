import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDestination, type Destination } from './workspace-destination';
import { openWorkspaceRoot, type WorkspaceRoot } from './workspace-root';

describe('openDestination', () => {
  let tmp: string;
  let rootPath: string;
  let root: WorkspaceRoot;
  const opened: Destination[] = [];

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-dest-'));
    rootPath = join(tmp, 'root');
    mkdirSync(join(rootPath, 'dir', 'deep'), { recursive: true });
    mkdirSync(join(tmp, 'outside'));
    writeFileSync(join(rootPath, 'notes.txt'), 'notes');
    symlinkSync('dir', join(rootPath, 'link-dir'));
    symlinkSync(join(tmp, 'outside'), join(rootPath, 'escape-dir'));
    root = openWorkspaceRoot(rootPath);
  });
  afterEach(() => {
    for (const dest of opened.splice(0)) dest.close();
    root.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  function open(path: unknown, createParents = false): Destination {
    const result = openDestination(root, path, { createParents });
    if (result.kind !== 'opened') throw new Error(`refused: ${result.refusal.code} ${result.refusal.message}`);
    opened.push(result.dest);
    return result.dest;
  }

  const identity = (path: string) => {
    const s = statSync(path, { bigint: true });
    return { dev: s.dev.toString(), ino: s.ino.toString() };
  };

  it('opens the directory of a nested path: its canonical path, its name and the directory identity', () => {
    const dest = open('dir/deep/new.txt');
    expect(dest).toMatchObject({ path: 'dir/deep/new.txt', name: 'new.txt', dir: identity(join(rootPath, 'dir', 'deep')) });
    writeFileSync(dest.entry('probe'), 'through the handle');
    expect(readFileSync(join(rootPath, 'dir', 'deep', 'probe'), 'utf8')).toBe('through the handle');
  });

  it('opens the root itself (its own descriptor) for a path of one component', () => {
    const dest = open('notes.txt');
    expect(dest.dir).toEqual({ dev: root.dev, ino: root.ino });
    expect(dest.dirFd).not.toBe(root.fd);
    dest.close();
    expect(statSync(root.handlePath(root.fd, 'notes.txt')).isFile()).toBe(true);
  });

  it('refuses a missing parent without createParents, and creates nothing', () => {
    expect(openDestination(root, 'new/sub/file.txt', { createParents: false })).toEqual({
      kind: 'refused',
      refusal: { code: 'PATH_NOT_FOUND', message: expect.any(String), component: 0 },
    });
    expect(existsSync(join(rootPath, 'new'))).toBe(false);
  });

  it('creates missing parents one at a time, modes from the umask, under existing ones', () => {
    const umask = process.umask(0o022);
    let dest: Destination;
    try {
      dest = open('dir/new/sub/file.txt', true);
    } finally {
      process.umask(umask);
    }
    expect(dest.dir).toEqual(identity(join(rootPath, 'dir', 'new', 'sub')));
    expect(statSync(join(rootPath, 'dir', 'new')).mode & 0o777).toBe(0o755);
    expect(statSync(join(rootPath, 'dir', 'new', 'sub')).mode & 0o777).toBe(0o755);
    expect(existsSync(join(rootPath, 'dir', 'new', 'sub', 'file.txt'))).toBe(false);
  });

  it.each([
    ['a symlinked ancestor inside the root', 'link-dir/deep/x.txt', 0],
    ['a symlinked ancestor leading outside', 'escape-dir/new/x.txt', 0],
  ])('refuses %s, with or without createParents, and creates nothing through it', (_what, path, component) => {
    for (const createParents of [false, true]) {
      expect(openDestination(root, path, { createParents })).toEqual({
        kind: 'refused',
        refusal: { code: 'PATH_SYMLINK', message: expect.any(String), component },
      });
    }
    expect(existsSync(join(tmp, 'outside', 'new'))).toBe(false);
  });

  it('refuses a file as an ancestor, even with createParents', () => {
    expect(openDestination(root, 'notes.txt/x.txt', { createParents: true })).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_NOT_FOUND', component: 0 } });
  });

  it('refuses what the path rules refuse before touching the disk', () => {
    expect(openDestination(root, '../outside/x.txt', { createParents: true })).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_ESCAPE' } });
    expect(openDestination(root, 42, { createParents: true })).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_INVALID' } });
  });

  it('names only single entries of its directory, and nothing once closed', () => {
    const dest = open('dir/x.txt');
    for (const bad of ['', '.', '..', 'deep/x', 'a\0b']) expect(() => dest.entry(bad)).toThrow(TypeError);
    dest.close();
    dest.close();
    expect(() => dest.entry('x.txt')).toThrow(/closed/);
  });

  it('gives one directory one identity through two roots (an alias: root B is a subdirectory of root A)', () => {
    const rootB = openWorkspaceRoot(join(rootPath, 'dir'));
    try {
      const viaB = openDestination(rootB, 'deep/x.txt', { createParents: false });
      expect(viaB.kind === 'opened' && viaB.dest.dir).toEqual(open('dir/deep/y.txt').dir);
      if (viaB.kind === 'opened') viaB.dest.close();
    } finally {
      rootB.close();
    }
  });
});
