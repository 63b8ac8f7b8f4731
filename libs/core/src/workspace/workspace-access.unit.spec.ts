import { checkWorkspaceAccess, isReservedPath, type ReservedPath } from './workspace-access';

describe('checkWorkspaceAccess', () => {
  const reserved: ReservedPath[] = [
    { path: 'var/store', what: "the embedded store's data directory", siblings: true },
    { path: 'config/policy.yaml', what: "the owner's policy" },
  ];
  const access = (path: string, how: 'read' | 'write', directory = false) => checkWorkspaceAccess(path, { access: how, reserved, directory });

  it.each([
    ['the data directory', 'var/store'],
    ['a file in it', 'var/store/PG_VERSION'],
    ['its lock', 'var/store.lock'],
    ['its gateway address', 'var/store.gateway.json'],
    ['a restore staging copy', 'var/store.restoring-42/base/1'],
    ['the policy', 'config/policy.yaml'],
    ['the policy, dotted', './config/../config//policy.yaml'],
  ])('refuses %s to reads and writes alike', (_, path) => {
    for (const how of ['read', 'write'] as const) {
      const check = access(path, how);
      expect(check).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_RESERVED' } });
      if (check.kind === 'refused') expect(check.refusal.message).toMatch(/reserved: .* is kept there/);
    }
    expect(access(path, 'read', true)).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_RESERVED' } });
  });

  it.each(['var/storehouse', 'var/store-old/x', 'var', 'config/policy.yaml.example', 'config'])('leaves %s alone', (path) => {
    expect(access(path, 'write').kind).toBe('valid');
  });

  it.each(['.git/config', '.git/hooks/pre-commit', 'vendor/lib/.git/HEAD', '.git'])('reads %s but never writes or binds it', (path) => {
    expect(access(path, 'read').kind).toBe('valid');
    const check = access(path, 'write');
    expect(check).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_RESERVED', component: path.split('/').indexOf('.git') } });
    if (check.kind === 'refused') expect(check.refusal.message).toContain('git');
  });

  it('writes beside .git: .gitignore, .github', () => {
    expect(access('.gitignore', 'write').kind).toBe('valid');
    expect(access('.github/workflows/ci.yml', 'write').kind).toBe('valid');
  });

  it('leaves out of listings what it refuses', () => {
    expect(isReservedPath('.palimpsest', '.palimpsest', [])).toBe(true);
    expect(isReservedPath('docs/.palimpsest-1-0.backup', '.palimpsest-1-0.backup', [])).toBe(true);
    expect(isReservedPath('var/store.gateway.json', 'store.gateway.json', reserved)).toBe(true);
    expect(isReservedPath('var/storehouse', 'storehouse', reserved)).toBe(false);
    expect(isReservedPath('.git', '.git', reserved)).toBe(false);
  });
});
