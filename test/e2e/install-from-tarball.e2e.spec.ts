import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT } from '../support/cli-process';

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * What a user does on their own project (README, "Use it on your own project"): pack the checkout,
 * install the tarball, and register the installed `palimpsest mcp --workspace <project>` with an MCP
 * client that starts it from some other directory. Everything it needs (the built code, the migrations,
 * the prepared database image) is found beside the installed package, not in the working directory.
 */
describe('the packed package, installed into a prefix and run from another directory', () => {
  let tmp: string;
  let bin: string;
  let project: string;
  let elsewhere: string;

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-install-'));
    npm(['pack', '--ignore-scripts', '--pack-destination', tmp], REPO_ROOT); // the build is already there (`npm pack` alone runs it)
    const [tarball] = readdirSync(tmp).filter((name) => name.endsWith('.tgz'));
    expect(tarball).toBe('palimpsest-engine-0.1.0.tgz');
    const prefix = join(tmp, 'prefix');
    npm(['install', '--prefix', prefix, join(tmp, tarball!), '--prefer-offline', '--no-audit', '--no-fund'], tmp);
    bin = join(prefix, 'node_modules', '.bin', 'palimpsest');
    project = join(tmp, 'project');
    elsewhere = join(tmp, 'elsewhere');
    mkdirSync(project);
    mkdirSync(elsewhere);
    execFileSync('git', ['init', '-q'], { cwd: project });
    writeFileSync(join(project, 'README.md'), '# A project of its own\n');
  }, 300_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('palimpsest mcp --workspace <project> over stdio lists the tools and reads a project file', async () => {
    const env = { ...(process.env as Record<string, string>), DATABASE_URL: '', PALIMPSEST_DATA_DIR: '', PALIMPSEST_WORKSPACE_ROOT: '' };
    const transport = new StdioClientTransport({ command: bin, args: ['mcp', '--workspace', project], cwd: elsewhere, env, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => (stderr += chunk));
    const client = new Client({ name: 'install-e2e', version: '1.0.0' });
    try {
      await client.connect(transport);
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'palimpsest_capabilities']));
      const read = (await client.callTool({ name: 'read_file', arguments: { path: 'README.md' } })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
      expect(read.isError).not.toBe(true);
      expect(JSON.stringify(read.structuredContent)).toContain('# A project of its own');
    } finally {
      await client.close();
    }
    expect(stderr).toMatch(/restored the prepared image \(\d+ migrations\)/); // the image shipped in the package
    expect(stderr).toContain(`palimpsest mcp workspace root: ${project}`);
    expect(existsSync(join(elsewhere, '.palimpsest', 'data', 'PG_VERSION'))).toBe(true); // the data directory: the working directory's
  }, 120_000);
});
