import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { WorkspaceRootError } from '@palimpsest/workspace/workspace-root';
import { appContext } from '../app-context';
import { dispatch } from '../dispatch/dispatch';

describe(`palimpsest_capabilities reports the workspace on ${describeBackend}`, () => {
  let testDb: TestDb;
  let tmp: string;
  const saved = process.env.PALIMPSEST_WORKSPACE_ROOT;

  beforeAll(async () => {
    testDb = await createTestDb({ migrate: false });
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-caps-'));
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.PALIMPSEST_WORKSPACE_ROOT;
    else process.env.PALIMPSEST_WORKSPACE_ROOT = saved;
  });
  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
    await testDb.dispose();
  });

  const capabilities = async () => {
    const ctx = appContext(testDb.db);
    try {
      return (await dispatch(ctx, 'palimpsest_capabilities', {})) as Record<string, any>;
    } finally {
      ctx.workspace?.close();
    }
  };

  it('says so when no workspace is configured', async () => {
    delete process.env.PALIMPSEST_WORKSPACE_ROOT;
    expect((await capabilities()).workspace).toEqual({ configured: false, root: null, device: null, inode: null });
  });

  it('gives the configured root and the device and inode of the directory opened at start', async () => {
    process.env.PALIMPSEST_WORKSPACE_ROOT = tmp;
    const stats = statSync(tmp, { bigint: true });
    expect((await capabilities()).workspace).toEqual({
      configured: true,
      root: tmp,
      device: stats.dev.toString(),
      inode: stats.ino.toString(),
    });
  });

  it('refuses to make a context on a misconfigured root rather than answering without it', () => {
    process.env.PALIMPSEST_WORKSPACE_ROOT = join(tmp, 'missing');
    expect(() => appContext(testDb.db)).toThrow(WorkspaceRootError);
  });
});
