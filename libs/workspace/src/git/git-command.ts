import { execFile } from 'node:child_process';

/** A git invocation that exited non-zero: its arguments, exit code and what it said on stderr. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | string | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (${code}): ${stderr.trim()}`);
  }
}

export interface GitOptions {
  /** Written to the child's stdin (commit-tree's message). */
  input?: string | Buffer;
  /** Added to the process's environment (GIT_INDEX_FILE of a temporary index). */
  env?: Record<string, string>;
}

const MAX_OUTPUT = 256 * 1024 * 1024;

/** Runs the `git` binary with argv (no shell) in `cwd`; its stdout as bytes. */
export function git(cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { cwd, encoding: 'buffer', maxBuffer: MAX_OUTPUT, env: { ...process.env, ...opts.env, GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout, stderr) => {
        if (error) reject(new GitError(args, (error as NodeJS.ErrnoException).code ?? null, stderr.toString('utf8')));
        else resolve(stdout);
      },
    );
    // A git that exits without reading its input closes the pipe: its exit status is the answer, not EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(opts.input ?? '');
  });
}

/** git's stdout as trimmed text. */
export async function gitText(cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<string> {
  return (await git(cwd, args, opts)).toString('utf8').trim();
}
