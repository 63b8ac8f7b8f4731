import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspaceRoot, reservingKept, workspaceRootFromEnv, WorkspaceRootError, type WorkspaceRoot } from './workspace-root';
import { readWorkspaceFile } from './workspace-file-reader';

describe('the workspace root (PALIMPSEST_WORKSPACE_ROOT)', () => {
  let tmp: string;
  const opened: WorkspaceRoot[] = [];
  const open = (path: string) => {
    const root = openWorkspaceRoot(path);
    opened.push(root);
    return root;
  };

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-root-'));
  });
  afterEach(() => {
    opened.splice(0).forEach((r) => r.close());
    rmSync(tmp, { recursive: true, force: true });
  });

  const refusal = (path: string): WorkspaceRootError => {
    try {
      open(path);
    } catch (e) {
      if (e instanceof WorkspaceRootError) return e;
      throw e;
    }
    throw new Error(`${path} was accepted`);
  };

  it.each([
    ['relative', () => 'workspace', 'workspace_root_relative', /must be an absolute path/],
    ['dot-relative', () => './workspace', 'workspace_root_relative', /must be an absolute path/],
    ['missing', () => join(tmp, 'missing'), 'workspace_root_missing', /does not exist/],
    ['a file', () => (writeFileSync(join(tmp, 'file'), 'x'), join(tmp, 'file')), 'workspace_root_not_directory', /is not a directory/],
    ['under a file', () => (writeFileSync(join(tmp, 'file'), 'x'), join(tmp, 'file', 'sub')), 'workspace_root_not_directory', /is not a directory/],
  ])('refuses a root that is %s, naming the variable', (_name, path, code, message) => {
    const e = refusal(path());
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).toContain('PALIMPSEST_WORKSPACE_ROOT');
  });

  it('records the device and inode of the directory it opened', () => {
    const root = open(tmp);
    const stats = statSync(tmp, { bigint: true });
    expect({ path: root.path, dev: root.dev, ino: root.ino }).toEqual({ path: tmp, dev: stats.dev.toString(), ino: stats.ino.toString() });
  });

  it('takes a root named through a symlink as the directory it names (the operator chose it)', () => {
    mkdirSync(join(tmp, 'real'));
    symlinkSync(join(tmp, 'real'), join(tmp, 'alias'));
    expect(open(join(tmp, 'alias')).ino).toBe(statSync(join(tmp, 'real'), { bigint: true }).ino.toString());
  });

  it('stays on the directory it opened when that directory is renamed or its path replaced', () => {
    mkdirSync(join(tmp, 'ws'));
    writeFileSync(join(tmp, 'ws', 'a.txt'), 'pinned');
    const root = open(join(tmp, 'ws'));
    renameSync(join(tmp, 'ws'), join(tmp, 'moved'));
    mkdirSync(join(tmp, 'ws'));
    writeFileSync(join(tmp, 'ws', 'a.txt'), 'impostor');
    const read = readWorkspaceFile(root, 'a.txt');
    expect(read.kind === 'read' && read.bytes.toString()).toBe('pinned');
  });

  it('is not configured when the variable is unset or empty, and opened when it names a directory', () => {
    expect(workspaceRootFromEnv({})).toBeNull();
    expect(workspaceRootFromEnv({ PALIMPSEST_WORKSPACE_ROOT: '' })).toBeNull();
    const root = workspaceRootFromEnv({ PALIMPSEST_WORKSPACE_ROOT: tmp })!;
    opened.push(root);
    expect(root.ino).toBe(statSync(tmp, { bigint: true }).ino.toString());
    expect(() => workspaceRootFromEnv({ PALIMPSEST_WORKSPACE_ROOT: 'relative/dir' })).toThrow(WorkspaceRootError);
  });

  describe('what Palimpsest keeps inside it', () => {
    const what = "the embedded store's data directory";

    it('is reserved by its workspace path, compared by real path, and nothing outside the root is', () => {
      mkdirSync(join(tmp, 'project', 'var'), { recursive: true });
      symlinkSync(join(tmp, 'project'), join(tmp, 'alias'));
      const root = open(join(tmp, 'project'));
      const kept = reservingKept(root, [
        { path: join(tmp, 'project', 'var', 'store'), what, siblings: true },
        { path: join(tmp, 'alias', 'policy.yaml'), what: "the owner's policy" },
        { path: join(tmp, 'elsewhere', 'data'), what },
      ]);
      expect(kept.reserved).toEqual([
        { path: 'var/store', what, siblings: true },
        { path: 'policy.yaml', what: "the owner's policy" },
      ]);
      expect(kept.fd).toBe(root.fd);
      expect(reservingKept(root, [{ path: join(tmp, 'elsewhere'), what }])).toBe(root);
    });

    it('refuses a root that is, or lies inside, a kept directory', () => {
      mkdirSync(join(tmp, 'project', '.palimpsest', 'data', 'base'), { recursive: true });
      for (const path of [join(tmp, 'project', '.palimpsest', 'data'), join(tmp, 'project', '.palimpsest', 'data', 'base')]) {
        const root = open(path);
        let error: unknown;
        try {
          reservingKept(root, [{ path: join(tmp, 'project', '.palimpsest', 'data'), what, siblings: true }]);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(WorkspaceRootError);
        expect(error).toMatchObject({ code: 'workspace_root_reserved', message: expect.stringContaining(what) });
      }
    });
  });
});
