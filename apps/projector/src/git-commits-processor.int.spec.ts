import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyGitCommits } from '@palimpsest/application/git-audit/verify-git.use-case';
import { gitCommitsProcessor } from '@palimpsest/application/git-audit/git-commits.reactor';
import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '@palimpsest/application/test-support/workspace-harness';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { loadCheckpoint } from '@palimpsest/projections/async/projection-checkpoints';
import { startAtLogHead } from '@palimpsest/projections/git-commits/git-commits.queries';
import { checkpoints } from '@palimpsest/projections/audit/audit-proofs.queries';
import { readAll } from '@palimpsest/store/read-all';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { git as gitBytes, gitText } from '@palimpsest/workspace/git/git-command';
import { trailerCommits } from '@palimpsest/workspace/git/git-trailer-log';
import { gitCommitsConfigFrom } from '@palimpsest/workspace/git/git-commits-config';
import { initTestRepo, userCommit } from '@palimpsest/workspace/git/test-support/git-test-repo';
import { configuredProjector } from './configured-processors';
import type { LogConsumer } from './log-consumer';
import { projectorConsumer } from './projector-consumer';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe(`accepted attempts as git commits, on the projector (${describeBackend})`, () => {
  let h: WorkspaceHarness;
  let projector: LogConsumer | undefined;
  let verifierKey: string;
  const edit = (args: Record<string, unknown>, client?: string) =>
    dispatchRequest(h.ctx, 'edit_file', args, { correlationId: 'session-1', ...(client ? { client } : {}) }) as Promise<Record<string, any>>;
  const git = (...args: string[]) => gitText(h.dir, args);
  const trailersOfHead = async (n: number) => (await trailerCommits(h.dir, 'HEAD', n)).map((c) => Object.fromEntries(c.trailers));
  const commitCount = async () => Number(await git('rev-list', '--count', 'HEAD'));

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-git-commits-');
    await initTestRepo(h.dir);
    writeFileSync(join(h.dir, 'c.txt'), 'alpha\r\nbeta\r\n');
    await git('add', 'c.txt');
    await userCommit(h.dir, 'a.txt', 'one\ntwo\n', 'initial');
    const options = configuredProjector(
      { relay: null, batchSize: 10, audit: { keyFile: join(h.dir, '.git', 'audit-key.pem'), policy: { everyEvents: 1000, everySeconds: 3600 } }, git: { workspaceRoot: h.dir } },
      silent,
    );
    verifierKey = options.audit!.signer.verifierKey;
    projector = projectorConsumer(h.testDb.db, { ...options, projections: [], runner: { ...options.runner, pollMs: 50 } });
    await projector.start();
  });
  afterAll(async () => {
    await projector?.stop();
    await h.dispose();
  });

  it('is off unless PALIMPSEST_GIT_COMMITS=attempt, and then needs a workspace root', () => {
    expect(gitCommitsConfigFrom({})).toBeNull();
    expect(gitCommitsConfigFrom({ PALIMPSEST_GIT_COMMITS: 'off', PALIMPSEST_WORKSPACE_ROOT: '/w' })).toBeNull();
    expect(gitCommitsConfigFrom({ PALIMPSEST_GIT_COMMITS: 'attempt', PALIMPSEST_WORKSPACE_ROOT: '/w' })).toEqual({ workspaceRoot: '/w' });
    expect(() => gitCommitsConfigFrom({ PALIMPSEST_GIT_COMMITS: 'attempt' })).toThrow(RangeError);
    expect(() => gitCommitsConfigFrom({ PALIMPSEST_GIT_COMMITS: 'yes', PALIMPSEST_WORKSPACE_ROOT: '/w' })).toThrow(RangeError);
    expect(configuredProjector({ relay: null, batchSize: 10, git: null }, silent).reactors).toEqual([]);
    // Unset in this process's environment: no reactor, so no commit and no trailer anywhere.
    expect(process.env.PALIMPSEST_GIT_COMMITS).toBeUndefined();
    expect(configuredProjector({ relay: null, batchSize: 10 }, silent).reactors).toEqual([]);
  });

  it('commits each accepted edit with the engine\'s trailers, the file\'s bytes as published, git status clean', async () => {
    const first = await edit({ path: 'a.txt', oldString: 'two', newString: 'TWO' }, 'claude-code');
    expect(first).toMatchObject({ status: 'ok' });
    await eventually(() => checkpoints(h.testDb.db), (all) => all.length > 0, { timeoutMs: 30_000 });
    await eventually(commitCount, (n) => n === 2, { timeoutMs: 30_000 });
    const rejected = await edit({ path: 'a.txt', oldString: 'absent', newString: 'x' }, 'claude-code');
    expect(rejected.status).toBe('rejected');
    const second = await edit({ path: 'c.txt', oldString: 'beta', newString: 'BETA' });
    expect(second).toMatchObject({ status: 'ok', content_eol: 'crlf' });
    expect(await eventually(commitCount, (n) => n === 3, { timeoutMs: 30_000 })).toBe(3);

    const [latest, earlier] = await trailersOfHead(2);
    expect(earlier).toMatchObject({
      'Palimpsest-Attempt': [first.attempt_id],
      'Palimpsest-Events': [`${first.target_file_id}@${first.version - 1}..${first.version}`],
      'Assisted-by': ['claude-code'],
    });
    // The second edit came after a checkpoint was signed, from a caller that named no client.
    expect(latest).toEqual({
      'Palimpsest-Attempt': [second.attempt_id],
      'Palimpsest-Events': [`${second.target_file_id}@${second.version - 1}..${second.version}`],
      'Palimpsest-Checkpoint': [expect.stringMatching(/^\d+ [A-Za-z0-9+/]+=*$/)],
    });
    const [size, root] = latest!['Palimpsest-Checkpoint']![0]!.split(' ');
    const signed = await checkpoints(h.testDb.db);
    expect(signed.some((c) => c.size === Number(size) && Buffer.from(c.root, 'hex').toString('base64') === root)).toBe(true);
    expect(await git('log', '--format=%B')).not.toContain('Signed-off-by');
    expect((await gitBlob(h.dir, 'HEAD:c.txt')).equals(readFileSync(join(h.dir, 'c.txt')))).toBe(true);
    expect((await gitBlob(h.dir, 'HEAD:a.txt')).toString()).toBe('one\nTWO\n');
    expect(await eventually(() => git('status', '--porcelain'), (s) => s === '')).toBe('');
  });

  it('commits a write_file over a bound file; a file write_file creates is no attempt, and reaches git with its first edit', async () => {
    const before = await commitCount();
    const write = (args: Record<string, unknown>) => dispatchRequest(h.ctx, 'write_file', args, { client: 'claude-code' }) as Promise<Record<string, any>>;
    const replaced = await write({ path: 'a.txt', content: 'one\nTWO\nthree\n' });
    expect(replaced).toMatchObject({ status: 'ok', created: false });
    const created = await write({ path: 'new.txt', content: 'fresh\n' });
    expect(created).toMatchObject({ status: 'ok', created: true, attempt_id: null });
    const edited = await edit({ path: 'new.txt', oldString: 'fresh', newString: 'edited' }, 'claude-code');
    expect(await eventually(commitCount, (n) => n === before + 2, { timeoutMs: 30_000 })).toBe(before + 2);
    const [last, previous] = await trailerCommits(h.dir, 'HEAD', 2);
    expect(previous!.trailers.get('Palimpsest-Attempt')).toEqual([replaced.attempt_id]);
    expect(last!.trailers.get('Palimpsest-Attempt')).toEqual([edited.attempt_id]);
    expect((await gitBlob(h.dir, 'HEAD:new.txt')).toString()).toBe('edited\n');
    // The index takes the new blob just after the branch moves.
    expect(await eventually(() => git('status', '--porcelain'), (s) => s === '')).toBe('');
  });

  it('does not commit an attempt twice when a batch is handled again (a re-run after a crash)', async () => {
    const before = await commitCount();
    const again = gitCommitsProcessor(appContext(h.testDb.db, { workspace: null }), h.dir);
    await again.open();
    const events = await readAll(h.testDb.db, { after: null, limit: 1000 });
    await again.handle(events, { commit: async () => undefined });
    expect(await commitCount()).toBe(before);
  });

  it('starts a first-time consumer at the log\'s head, and leaves an existing checkpoint where it is', async () => {
    const { db } = h.testDb;
    const { rows } = await db.query<{ p: string }>('SELECT max(global_position)::text AS p FROM events');
    await startAtLogHead(db, 'git_commits_probe');
    expect((await loadCheckpoint(db, 'git_commits_probe')).position).toBe(Number(rows[0]!.p));
    const before = await loadCheckpoint(db, 'git_commits');
    await startAtLogHead(db, 'git_commits');
    expect((await loadCheckpoint(db, 'git_commits')).position).toBe(before.position);
  });

  it('verifies every commit against the log, and names a commit whose content or trailers were edited after the fact', async () => {
    const good = await verifyGitCommits(h.ctx, h.dir, verifierKey);
    expect(good).toMatchObject({ ok: true });
    expect(good.commits).toHaveLength(4);
    const head = await git('rev-parse', 'HEAD');
    const message = await git('log', '-1', '--format=%B');
    const restore = () => git('reset', '-q', '--hard', head);

    const amend = async (path: string, text: string) => {
      writeFileSync(join(h.dir, path), text);
      await git('commit', '-q', '-a', '--amend', '--no-edit');
      const report = await verifyGitCommits(h.ctx, h.dir, verifierKey);
      expect(report.ok).toBe(false);
      const failed = report.commits[0]!;
      expect(failed).toMatchObject({ commit: await git('rev-parse', 'HEAD'), ok: false });
      await restore();
      return failed.reason;
    };
    expect(await amend('new.txt', 'edited after the fact\n')).toContain('new.txt differs from the log');
    expect(await amend('c.txt', 'alpha\r\nslipped in\r\n')).toContain('the commit changes c.txt, which no Palimpsest-Events trailer names');

    const forge = async (from: string, to: string) => {
      await git('commit', '-q', '--amend', '-m', message.replace(from, to));
      const report = await verifyGitCommits(h.ctx, h.dir, verifierKey);
      await restore();
      return report.commits[0]!;
    };
    const range = /@(\d+)\.\.(\d+)/.exec(message)!;
    expect(await forge(range[0], `@${Number(range[1]) + 1}..${Number(range[2]) + 1}`)).toMatchObject({ ok: false, reason: expect.stringContaining('the trailer says') });
    const attempt = /Palimpsest-Attempt: (\S+)/.exec(message)![1]!;
    expect(await forge(attempt, '00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, reason: expect.stringContaining('not an accepted attempt') });
    const size = /Palimpsest-Checkpoint: (\d+)/.exec(message)![1]!;
    expect(await forge(`Checkpoint: ${size}`, `Checkpoint: ${Number(size) + 1}`)).toMatchObject({ ok: false, reason: expect.stringContaining('not a signed checkpoint') });
    expect((await verifyGitCommits(h.ctx, h.dir, verifierKey)).ok).toBe(true);
  });
});

const gitBlob = (dir: string, spec: string): Promise<Buffer> => gitBytes(dir, ['cat-file', 'blob', spec]);
