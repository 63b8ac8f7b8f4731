import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { gitText } from '@palimpsest/workspace/git/git-command';
import { initTestRepo, userCommit } from '@palimpsest/workspace/git/test-support/git-test-repo';
import { isolatedStore, runCli } from '../support/cli-process';
import { connectMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`accepted edits as git commits through \`palimpsest mcp\`, checked by \`palimpsest verify --git\` on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-git-'));
    await initTestRepo(dir);
    await userCommit(dir, 'a.txt', 'one\r\ntwo\r\n', 'initial');
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('commits an MCP edit with the client\'s name and the trailers, verifies it, and names it once amended', async () => {
    const env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir, PALIMPSEST_GIT_COMMITS: 'attempt', PALIMPSEST_AUDIT: 'on' };
    const mcp = await connectMcp(env);
    const edited = await mcp.call('edit_file', { path: 'a.txt', oldString: 'two', newString: 'TWO' });
    expect(edited.result).toMatchObject({ status: 'ok' });
    const count = await eventually(async () => Number(await gitText(dir, ['rev-list', '--count', 'HEAD'])), (n) => n === 2, { timeoutMs: 30_000 });
    await mcp.close();
    expect(count).toBe(2);
    const body = await gitText(dir, ['log', '-1', '--format=%B']);
    expect(body).toContain(`Palimpsest-Attempt: ${edited.result.attempt_id}`);
    expect(body).toContain(`Palimpsest-Events: ${edited.result.target_file_id}@0..1`);
    expect(body).toContain('Assisted-by: palimpsest-e2e');
    expect(await gitText(dir, ['status', '--porcelain'])).toBe('');

    const verified = await runCli(['verify', '--git', dir], { env });
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, commits: [{ attempt_id: edited.result.attempt_id, ok: true }] });

    writeFileSync(join(dir, 'a.txt'), 'one\r\nTWO, then edited by hand\r\n');
    await gitText(dir, ['commit', '-q', '-a', '--amend', '--no-edit']);
    const amended = await runCli(['verify', '--git', dir], { env });
    expect(amended.code).toBe(1);
    expect(amended.stderr).toContain(`commit ${await gitText(dir, ['rev-parse', 'HEAD'])}: a.txt differs from the log`);
  });
});
