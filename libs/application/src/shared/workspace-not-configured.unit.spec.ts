import { servingCommand, workspaceNotConfigured } from './workspace-not-configured';

describe('workspace_not_configured names the process to configure', () => {
  it('is the gateway when the answering process is `palimpsest api`', () => {
    const answer = workspaceNotConfigured('read_file works on files under the workspace root', {}, ['/usr/bin/node', '/opt/p/apps/cli/bin/palimpsest.js', 'api', '--port', '0']);
    expect(answer).toMatchObject({ status: 'invalid_argument', code: 'workspace_not_configured' });
    expect(answer.failure_detail).toBe(
      `read_file works on files under the workspace root, and this palimpsest api (pid ${process.pid}) has no workspace root: ` +
        'restart it as `palimpsest api --workspace <dir>` (or with PALIMPSEST_WORKSPACE_ROOT=<dir>).',
    );
  });

  it('reads the command from an installed bin as from the checkout', () => {
    expect(servingCommand(['/usr/bin/node', '/home/u/.local/bin/palimpsest', 'mcp', '--profile', 'files'])).toBe('palimpsest mcp');
    expect(servingCommand(['node', 'apps/cli/bin/palimpsest.js', 'serve'])).toBe('palimpsest serve');
  });

  it('says "this process" when it is not the CLI', () => {
    expect(servingCommand(['node', '/x/node_modules/jest/bin/jest.js', 'palimpsest'])).toBeNull();
    expect(workspaceNotConfigured('x', {}, ['node', 'embed.js']).failure_detail).toContain('this process (pid');
  });
});
