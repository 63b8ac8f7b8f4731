import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayAddress } from '@palimpsest/api/lifecycle/gateway-address';
import { applyWorkspaceOption, assertSameWorkspaceRoot, WorkspaceMismatchError } from './workspace-option';

describe('--workspace and the root of a gateway a command goes through', () => {
  let tmp: string;
  let project: string;
  const gateway = (root: string | null): GatewayAddress => ({
    pid: 4242,
    url: 'http://127.0.0.1:3000',
    version: '0.1.0',
    token: null,
    data_dir: '/srv/data',
    workspace_root: root,
    started_at: '2026-01-01T00:00:00.000Z',
  });
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-ws-option-'));
    project = join(tmp, 'project');
    mkdirSync(project);
    symlinkSync(project, join(tmp, 'link'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('the option wins over the environment and resolves against the working directory', () => {
    const env: NodeJS.ProcessEnv = { PALIMPSEST_WORKSPACE_ROOT: '/elsewhere' };
    applyWorkspaceOption('project', env, tmp);
    expect(env.PALIMPSEST_WORKSPACE_ROOT).toBe(project);
    applyWorkspaceOption(undefined, env, '/');
    expect(env.PALIMPSEST_WORKSPACE_ROOT).toBe(project);
  });

  it('goes through a gateway on the same directory, however spelled, or when given no root', () => {
    for (const given of [project, `${project}/`, join(tmp, 'link')]) {
      expect(() => assertSameWorkspaceRoot(gateway(project), { PALIMPSEST_WORKSPACE_ROOT: given })).not.toThrow();
    }
    expect(() => assertSameWorkspaceRoot(gateway(project), {})).not.toThrow();
    expect(() => assertSameWorkspaceRoot(gateway(null), { PALIMPSEST_WORKSPACE_ROOT: '' })).not.toThrow();
  });

  it('refuses a gateway on another root, or on none, naming both and exiting 2', () => {
    const other = () => assertSameWorkspaceRoot(gateway('/srv/other'), { PALIMPSEST_WORKSPACE_ROOT: project });
    expect(other).toThrow(WorkspaceMismatchError);
    expect(other).toThrow(`works on the workspace root /srv/other, but this command was given ${project}`);
    expect(() => assertSameWorkspaceRoot(gateway(null), { PALIMPSEST_WORKSPACE_ROOT: project })).toThrow(`has no workspace root, but this command was given ${project}`);
    expect(new WorkspaceMismatchError('x').exitCode).toBe(2);
  });
});
