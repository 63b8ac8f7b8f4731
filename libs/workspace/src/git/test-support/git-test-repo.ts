import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitText } from '../git-command';

/** A work tree at `dir` with its own identity (none inherited from the machine), and no hooks or signing. */
export async function initTestRepo(dir: string): Promise<void> {
  await gitText(dir, ['init', '-q', '-b', 'main']);
  await gitText(dir, ['config', 'user.name', 'Test User']);
  await gitText(dir, ['config', 'user.email', 'user@example.test']);
  await gitText(dir, ['config', 'commit.gpgsign', 'false']);
}

/** What a user does: write a file and commit it with porcelain. The new HEAD. */
export async function userCommit(dir: string, path: string, text: string, message: string): Promise<string> {
  writeFileSync(join(dir, path), text);
  await gitText(dir, ['add', '--', path]);
  await gitText(dir, ['commit', '-q', '-m', message]);
  return gitText(dir, ['rev-parse', 'HEAD']);
}
