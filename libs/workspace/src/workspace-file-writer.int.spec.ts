import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDestination, type Destination } from './workspace-destination';
import {
  durableWrite,
  installNew,
  installOver,
  linkBackup,
  readEntry,
  removeEntry,
  restoreBackup,
  stageFile,
  syncDirectory,
} from './workspace-file-writer';
import { openWorkspaceRoot, type WorkspaceRoot } from './workspace-root';

const STAGE = '.palimpsest-stage';
const BACKUP = '.palimpsest-backup';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('the publication IO steps', () => {
  let tmp: string;
  let rootPath: string;
  let outside: string;
  let root: WorkspaceRoot;
  const opened: Destination[] = [];

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-write-'));
    rootPath = join(tmp, 'root');
    outside = join(tmp, 'outside');
    mkdirSync(join(rootPath, 'sub'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(rootPath, 'sub', 'file.txt'), 'old bytes');
    chmodSync(join(rootPath, 'sub', 'file.txt'), 0o640);
    writeFileSync(join(outside, 'file.txt'), 'OUTSIDE');
    root = openWorkspaceRoot(rootPath);
  });
  afterEach(() => {
    for (const dest of opened.splice(0)) dest.close();
    root.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  function open(path: string, createParents = false): Destination {
    const result = openDestination(root, path, { createParents });
    if (result.kind !== 'opened') throw new Error(`refused: ${result.refusal.code}`);
    opened.push(result.dest);
    return result.dest;
  }
  const at = (...parts: string[]) => join(rootPath, ...parts);

  it('replaces a file: read, stage with its mode, back up without a copy, install, sync, drop the backup', () => {
    const dest = open('sub/file.txt');
    const before = readEntry(dest);
    expect(before).toMatchObject({ kind: 'file', sha256: sha('old bytes'), bytes: Buffer.from('old bytes') });
    if (before.kind !== 'file') return;
    expect(before.identity.mode & 0o777).toBe(0o640);

    const staged = stageFile(dest, STAGE, Buffer.from('new bytes'), before.identity.mode);
    expect(staged).toEqual({ sha256: sha('new bytes'), bytes: 9, identity: expect.objectContaining({ size: 9 }) });
    expect(readEntry(dest)).toMatchObject({ kind: 'file', sha256: before.sha256 });
    linkBackup(dest, BACKUP);
    expect(statSync(at('sub', BACKUP)).ino.toString()).toBe(before.identity.ino);
    installOver(dest, STAGE);
    syncDirectory(dest);

    expect(readFileSync(at('sub', 'file.txt'), 'utf8')).toBe('new bytes');
    expect(statSync(at('sub', 'file.txt')).ino.toString()).toBe(staged.identity.ino); // the inode staged is the one installed
    expect(statSync(at('sub', 'file.txt')).mode & 0o777).toBe(0o640);
    expect(readFileSync(at('sub', BACKUP), 'utf8')).toBe('old bytes');
    expect(removeEntry(dest, BACKUP)).toBe(true);
    expect(removeEntry(dest, BACKUP)).toBe(false);
    expect(readdirSync(at('sub'))).toEqual(['file.txt']);
  });

  it('restores the backup over an installed file', () => {
    const dest = open('sub/file.txt');
    stageFile(dest, STAGE, Buffer.from('new bytes'), 0o640);
    linkBackup(dest, BACKUP);
    installOver(dest, STAGE);
    restoreBackup(dest, BACKUP);
    expect(readFileSync(at('sub', 'file.txt'), 'utf8')).toBe('old bytes');
    expect(readdirSync(at('sub'))).toEqual(['file.txt']);
  });

  it('creates a file under new parents: absent, staged with the umask\'s mode, linked into place, the stage gone', () => {
    const dest = open('sub/new/deeper/created.txt', true);
    expect(readEntry(dest)).toEqual({ kind: 'absent' });
    const umask = process.umask(0o077);
    try {
      stageFile(dest, STAGE, Buffer.from('created'), null);
    } finally {
      process.umask(umask);
    }
    expect(installNew(dest, STAGE)).toBe('installed');
    syncDirectory(dest);
    expect(readFileSync(at('sub', 'new', 'deeper', 'created.txt'), 'utf8')).toBe('created');
    expect(statSync(at('sub', 'new', 'deeper', 'created.txt')).mode & 0o777).toBe(0o600);
    expect(readdirSync(at('sub', 'new', 'deeper'))).toEqual(['created.txt']);
  });

  it('never clobbers a file that appears between the check and the install', () => {
    const dest = open('sub/appeared.txt');
    expect(readEntry(dest)).toEqual({ kind: 'absent' });
    stageFile(dest, STAGE, Buffer.from('ours'), 0o600);
    writeFileSync(at('sub', 'appeared.txt'), 'theirs'); // another writer, after our check
    expect(installNew(dest, STAGE)).toBe('exists');
    expect(readFileSync(at('sub', 'appeared.txt'), 'utf8')).toBe('theirs');
    expect(existsSync(at('sub', STAGE))).toBe(false);
  });

  it.each([
    ['to a file outside', () => join(outside, 'file.txt')],
    ['dangling, to a name outside', () => join(outside, 'planted.txt')],
  ])('never follows a symlink planted at the stage name (%s)', (_what, target) => {
    const dest = open('sub/file.txt');
    symlinkSync(target(), at('sub', STAGE));
    expect(() => stageFile(dest, STAGE, Buffer.from('new bytes'), 0o600)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(join(outside, 'file.txt'), 'utf8')).toBe('OUTSIDE');
    expect(readdirSync(outside)).toEqual(['file.txt']);
  });

  it('refuses a symlink, a directory or a FIFO at the name instead of following or opening it', () => {
    symlinkSync(join(outside, 'file.txt'), at('sub', 'link.txt'));
    mkdirSync(at('sub', 'a-dir'));
    spawnSync('mkfifo', [at('sub', 'fifo')]);
    const dest = open('sub/link.txt');
    expect(readEntry(dest)).toEqual({ kind: 'refused', refusal: { code: 'PATH_SYMLINK', message: expect.stringContaining('sub/link.txt'), component: 1 } });
    expect(readEntry(dest, 'a-dir')).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_NOT_A_FILE' } });
    expect(readEntry(dest, 'fifo')).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_NOT_A_FILE' } });
  });

  it('installs into the directory held when an ancestor is swapped for a symlink after the open', () => {
    const dest = open('sub/file.txt');
    renameSync(at('sub'), at('moved'));
    symlinkSync(outside, at('sub'));
    stageFile(dest, STAGE, Buffer.from('new bytes'), 0o640);
    installOver(dest, STAGE);
    syncDirectory(dest);
    expect(readFileSync(at('moved', 'file.txt'), 'utf8')).toBe('new bytes');
    expect(readFileSync(join(outside, 'file.txt'), 'utf8')).toBe('OUTSIDE');
    expect(readdirSync(outside)).toEqual(['file.txt']);
  });

  it('the baseline: a plain durable write (temp, fsync, rename, fsync the directory) leaves only the file', () => {
    durableWrite(at('sub'), 'file.txt', Buffer.from('baseline'));
    expect(readFileSync(at('sub', 'file.txt'), 'utf8')).toBe('baseline');
    expect(readdirSync(at('sub'))).toEqual(['file.txt']);
  });
});
