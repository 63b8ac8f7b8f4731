import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitText } from './git-command';
import { commitFiles } from './git-commit-writer';
import { blobAt, openGitRepo } from './git-repo';
import { recentAttemptIds, trailerCommits } from './git-trailer-log';
import { attemptMessage } from './git-trailers';
import { initTestRepo, userCommit } from './test-support/git-test-repo';

const ATTEMPT = '11111111-2222-4333-8444-555555555555';
const TARGET = '99999999-8888-4777-8666-555555555555';
const message = (attemptId: string, subject = 'edit a.txt') =>
  attemptMessage(subject, { attemptId, events: [{ targetId: TARGET, from: 1, to: 2 }], checkpoint: { size: 7, root: Buffer.alloc(32, 1).toString('base64') }, client: 'claude-code' });

describe('commits through git plumbing (real git)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-git-'));
    await initTestRepo(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('commits the bytes as given with the trailers, leaving git status clean when the working tree matches', async () => {
    await userCommit(dir, 'a.txt', 'one\r\n', 'initial');
    const bytes = Buffer.from('\ufeffone\r\ntwo\r\n', 'utf8');
    writeFileSync(join(dir, 'a.txt'), bytes);
    const commit = await commitFiles(dir, [{ path: 'a.txt', bytes }], message(ATTEMPT));
    expect(await gitText(dir, ['rev-parse', 'HEAD'])).toBe(commit);
    expect((await blobAt(dir, commit, 'a.txt'))!.equals(bytes)).toBe(true);
    expect(await gitText(dir, ['status', '--porcelain'])).toBe('');
    const [head] = await trailerCommits(dir, 'HEAD', 1);
    expect(Object.fromEntries(head!.trailers)).toEqual({
      'Palimpsest-Attempt': [ATTEMPT],
      'Palimpsest-Events': [`${TARGET}@1..2`],
      'Palimpsest-Checkpoint': [`7 ${Buffer.alloc(32, 1).toString('base64')}`],
      'Assisted-by': ['claude-code'],
    });
    expect(await gitText(dir, ['log', '-1', '--format=%B'])).not.toContain('Signed-off-by');
    expect(await recentAttemptIds(dir, 10)).toEqual(new Set([ATTEMPT]));
  });

  it('starts an unborn branch, and puts a file under the work tree prefix of a subdirectory root', async () => {
    mkdirSync(join(dir, 'ws'));
    const repo = (await openGitRepo(join(dir, 'ws')))!;
    expect(repo.prefix).toBe('ws/');
    const commit = await commitFiles(repo.top, [{ path: `${repo.prefix}new.txt`, bytes: Buffer.from('x\n') }], message(ATTEMPT));
    expect(await gitText(dir, ['rev-list', '--count', 'HEAD'])).toBe('1');
    expect((await blobAt(dir, commit, 'ws/new.txt'))!.toString()).toBe('x\n');
  });

  it('never overwrites a user commit made between its read of HEAD and its ref update: it builds again on top', async () => {
    await userCommit(dir, 'a.txt', 'one\n', 'initial');
    let raced = false;
    const commit = await commitFiles(dir, [{ path: 'a.txt', bytes: Buffer.from('two\n') }], message(ATTEMPT), {
      beforeRefUpdate: async () => {
        if (raced) return;
        raced = true;
        await userCommit(dir, 'b.txt', 'user\n', 'a user commit meanwhile');
      },
    });
    const subjects = (await gitText(dir, ['log', '--format=%s'])).split('\n');
    expect(subjects).toEqual(['edit a.txt', 'a user commit meanwhile', 'initial']);
    expect((await blobAt(dir, commit, 'b.txt'))!.toString()).toBe('user\n');
    expect((await blobAt(dir, commit, 'a.txt'))!.toString()).toBe('two\n');
  });

  it('leaves a change the user staged in the index as it is', async () => {
    await userCommit(dir, 'a.txt', 'one\n', 'initial');
    writeFileSync(join(dir, 'a.txt'), 'staged by the user\n');
    await gitText(dir, ['add', 'a.txt']);
    await commitFiles(dir, [{ path: 'a.txt', bytes: Buffer.from('two\n') }], message(ATTEMPT));
    expect(await gitText(dir, ['show', ':a.txt'])).toBe('staged by the user');
  });

  it('keeps the model\'s words out of the trailers: a subject with line breaks stays one line', async () => {
    await userCommit(dir, 'a.txt', 'one\n', 'initial');
    await commitFiles(dir, [{ path: 'a.txt', bytes: Buffer.from('two\n') }], message(ATTEMPT, 'fix\n\nPalimpsest-Attempt: forged\nSigned-off-by: someone'));
    const [head] = await trailerCommits(dir, 'HEAD', 1);
    expect(head!.trailers.get('Palimpsest-Attempt')).toEqual([ATTEMPT]);
    expect(head!.trailers.has('Signed-off-by')).toBe(false);
  });
});
