import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { WorkspaceRootError } from '@palimpsest/workspace/workspace-root';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { readConfig } from '@palimpsest/composition/palimpsest-config';
import { dispatch, type DispatchOptions } from '../dispatch/dispatch';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { FILES, FILES_PROFILE_TOOLS } from '@palimpsest/core/policy/owner-policy';

describe(`palimpsest_capabilities reports the profile and the workspace on ${describeBackend}`, () => {
  let testDb: TestDb;
  let tmp: string;
  /** The gateway's environment, read once per app context as a process reads it at start. */
  const env: Record<string, string | undefined> = {};
  const context = () => appContext(testDb.db, {}, readConfig(env, process.cwd()));

  beforeAll(async () => {
    testDb = await createTestDb({ migrate: false });
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-caps-'));
  });
  afterEach(() => {
    delete env.PALIMPSEST_WORKSPACE_ROOT;
  });
  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
    await testDb.dispose();
  });

  const capabilities = async () => {
    const ctx = context();
    try {
      return (await dispatch(ctx, 'palimpsest_capabilities', {})) as Record<string, any>;
    } finally {
      ctx.workspace?.close();
    }
  };

  it('says so when no workspace is configured', async () => {
    delete env.PALIMPSEST_WORKSPACE_ROOT;
    expect((await capabilities()).workspace).toEqual({ configured: false, root: null, device: null, inode: null });
  });

  it('gives the configured root and the device and inode of the directory opened at start', async () => {
    env.PALIMPSEST_WORKSPACE_ROOT = tmp;
    const stats = statSync(tmp, { bigint: true });
    expect((await capabilities()).workspace).toEqual({
      configured: true,
      root: tmp,
      device: stats.dev.toString(),
      inode: stats.ino.toString(),
    });
  });

  const capabilitiesFor = async (opts: DispatchOptions, args: Record<string, unknown> = {}) => {
    const ctx = context();
    try {
      return (await dispatch(ctx, 'palimpsest_capabilities', args, opts)) as Record<string, any>;
    } finally {
      ctx.workspace?.close();
    }
  };
  const bytes = (answer: object) => Buffer.byteLength(JSON.stringify(answer));

  it('lists only what the files profile can call, the codes those answer, and its name, within 4 KiB', async () => {
    env.PALIMPSEST_WORKSPACE_ROOT = tmp;
    const caps = await capabilitiesFor({ policy: FILES });
    expect(caps.profile).toBe('files');
    expect(caps.operations.map((op: { name: string }) => op.name).sort()).toEqual([...FILES_PROFILE_TOOLS].sort());
    const codes = new Set(CATALOG.filter((op) => FILES_PROFILE_TOOLS.includes(op.name)).flatMap((op) => op.errors));
    expect(caps.error_codes).toEqual([...codes].sort());
    expect(caps.profiles).toEqual([]);
    expect(bytes(caps)).toBeLessThanOrEqual(4096);
  });

  it('stays within 4 KiB for a profile of ten tools, and names a read-only session read-only', async () => {
    env.PALIMPSEST_WORKSPACE_ROOT = tmp;
    const ten = { ...FILES, name: 'ten', tools: ['palimpsest_capabilities', ...FILES_PROFILE_TOOLS.filter((n) => n !== 'palimpsest_capabilities').slice(0, 8), 'palimpsest_read_lines'] };
    const caps = await capabilitiesFor({ policy: ten });
    expect(caps).toMatchObject({ profile: 'ten', detail: false });
    expect(caps.operations).toHaveLength(10);
    expect(bytes(caps)).toBeLessThanOrEqual(4096);
    const readOnly = await capabilitiesFor({ readOnly: true });
    expect(readOnly.profile).toBe('read-only');
    const names = readOnly.operations.map((op: { name: string }) => op.name);
    expect(names).toContain('read_file');
    expect(names).not.toContain('edit_file');
  });

  it('gives every operation with its status and codes on request', async () => {
    const caps = await capabilitiesFor({ policy: FILES }, { detail: true });
    expect(caps.detail).toBe(true);
    expect(caps.operations).toHaveLength(CATALOG.length);
    expect(caps.operations.find((op: { name: string }) => op.name === 'palimpsest_submit_edits')).toMatchObject({ status: 'not_permitted', errors: expect.any(Array) });
    expect(caps.operations.find((op: { name: string }) => op.name === 'edit_file')).toMatchObject({ status: 'available' });
    expect(caps.profiles.length).toBeGreaterThan(0);
  });

  it('refuses to make a context on a misconfigured root rather than answering without it', () => {
    env.PALIMPSEST_WORKSPACE_ROOT = join(tmp, 'missing');
    expect(() => context()).toThrow(WorkspaceRootError);
  });
});
