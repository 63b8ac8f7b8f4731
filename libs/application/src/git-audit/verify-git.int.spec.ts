import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dispatchRequest } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';
import { readAll } from '@palimpsest/store/read-all';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { git as gitBytes, gitText } from '@palimpsest/workspace/git/git-command';
import { initTestRepo, userCommit } from '@palimpsest/workspace/git/test-support/git-test-repo';
import { gitCommitsProcessor } from './git-commits.reactor';
import { verifyGitCommits } from './verify-git.use-case';

/**
 * `verify --git` rebuilds a commit's bytes from the log as it stood at the commit's attempt. The line-ending
 * record it encodes them with is the one the log held then, not the read models' current row: a record that
 * reads otherwise later (here rewritten in SQL, as an operator could) neither fails an honest commit nor lets
 * a commit amended to match it pass.
 */
describe(`verify --git and the line-ending record as of the attempt (${describeBackend})`, () => {
  let h: WorkspaceHarness;
  const git = (...args: string[]) => gitText(h.dir, args);

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-verify-git-');
    await initTestRepo(h.dir);
    await userCommit(h.dir, 'c.txt', 'alpha\r\nbeta\r\n', 'initial');
    const reactor = gitCommitsProcessor(h.ctx, h.dir);
    await reactor.open();
    const edited = (await dispatchRequest(h.ctx, 'edit_file', { path: 'c.txt', oldString: 'beta', newString: 'BETA' }, {})) as Record<string, unknown>;
    expect(edited).toMatchObject({ status: 'ok', content_eol: 'crlf' });
    // readAll stops below the oldest open transaction (other suites' on a shared server): wait until it reads them all.
    const last = (await h.testDb.db.query<{ p: number }>('SELECT max(global_position)::bigint AS p FROM events')).rows[0]!.p;
    const events = await eventually(() => readAll(h.testDb.db, { after: null, limit: 1000 }), (read) => read.at(-1)?.globalPosition === last, { timeoutMs: 120_000 });
    await reactor.handle(events, { commit: async () => undefined });
    expect(await git('rev-list', '--count', 'HEAD')).toBe('2');
    expect((await gitBytes(h.dir, ['cat-file', 'blob', 'HEAD:c.txt'])).toString()).toBe('alpha\r\nBETA\r\n');
  });
  afterAll(() => h.dispose());

  const recordLaterReads = async (style: 'lf' | 'crlf') => {
    await h.testDb.db.query(`UPDATE workspace_files SET source_line_ending_style = $1`, [style]);
    await h.testDb.db.query(`UPDATE targets SET source_line_endings = jsonb_set(source_line_endings, '{style}', to_jsonb($1::text))`, [style]);
  };

  it('passes an honest commit whose file\'s record reads otherwise after it', async () => {
    expect(await verifyGitCommits(h.ctx, h.dir, null)).toMatchObject({ ok: true, commits: [{ ok: true }] });
    await recordLaterReads('lf');
    expect(await verifyGitCommits(h.ctx, h.dir, null)).toMatchObject({ ok: true, commits: [{ ok: true }] });
  });

  it('fails a commit amended to the line endings the record reads later', async () => {
    const head = await git('rev-parse', 'HEAD');
    await recordLaterReads('lf');
    writeFileSync(join(h.dir, 'c.txt'), 'alpha\nBETA\n');
    await git('commit', '-q', '-a', '--amend', '--no-edit');
    const report = await verifyGitCommits(h.ctx, h.dir, null);
    await git('reset', '-q', '--hard', head);
    expect(report).toMatchObject({ ok: false, commits: [{ ok: false, reason: expect.stringContaining('c.txt differs from the log') }] });
  });
});
