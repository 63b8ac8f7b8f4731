import type { PolicyHit } from './command-line';

/**
 * git under a list: global options that point git at other config, programs or repositories are refused
 * (`-c`, `--config-env`, `--exec-path`, `-C`, `--git-dir`, `--work-tree`); so are subcommands that are
 * not git's own (an alias, which may start with `!`, or a `git-<name>` program on PATH), the options of
 * its own subcommands that name a program to run, and writes of its config. What git runs from the
 * repository's own files (`.git/config`, hooks) goes to the written-file check.
 */

const SAFE_GLOBAL = new Set(['--no-pager', '-P', '-p', '--paginate', '--bare', '--no-replace-objects', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks', '--no-advice', '--version', '-v', '--help', '-h']);

const SUBCOMMANDS = new Set([
  'add', 'am', 'annotate', 'apply', 'archive', 'bisect', 'blame', 'branch', 'bundle', 'cat-file', 'check-attr', 'check-ignore', 'check-ref-format', 'checkout', 'cherry', 'cherry-pick', 'clean',
  'clone', 'commit', 'commit-tree', 'config', 'count-objects', 'describe', 'diff', 'diff-files', 'diff-index', 'diff-tree', 'fetch', 'for-each-ref', 'format-patch', 'fsck', 'gc', 'grep', 'hash-object',
  'init', 'log', 'ls-files', 'ls-remote', 'ls-tree', 'merge', 'merge-base', 'mv', 'name-rev', 'notes', 'pull', 'push', 'range-diff', 'rebase', 'reflog', 'remote', 'reset', 'restore', 'rev-list',
  'rev-parse', 'revert', 'rm', 'shortlog', 'show', 'show-branch', 'show-ref', 'sparse-checkout', 'stash', 'status', 'submodule', 'switch', 'symbolic-ref', 'tag', 'update-index', 'update-ref',
  'var', 'verify-commit', 'verify-tag', 'version', 'whatchanged', 'worktree', 'write-tree',
]);

/** Options of git's own subcommands whose value is a program, a shell line or a template of hooks. */
const RUNS_PROGRAM: Record<string, string[]> = {
  clone: ['-c', '--config', '-u', '--upload-pack', '--template'],
  init: ['--template'],
  fetch: ['--upload-pack'],
  pull: ['--upload-pack'],
  'ls-remote': ['--upload-pack'],
  archive: ['--exec', '--remote'],
  push: ['--receive-pack', '--exec'],
  rebase: ['-x', '--exec', '-i', '--interactive'],
  grep: ['-O', '--open-files-in-pager'],
  diff: ['--ext-diff'],
  log: ['--ext-diff'],
  show: ['--ext-diff'],
};

/** Subcommands whose words run a command line (`git bisect run`, `git submodule foreach`). */
const RUNS_LINE: Record<string, string> = { bisect: 'run', submodule: 'foreach' };

const CONFIG_READS = new Set(['--get', '--get-all', '--get-regexp', '--list', '-l', '--show-origin', '--show-scope', '--name-only', '--null', '-z', 'get', 'list', '--includes', '--no-includes', '--global', '--local', '--system']);

export const GIT_HOOKS = [
  'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'pre-rebase', 'post-checkout', 'post-merge',
  'pre-push', 'post-rewrite', 'reference-transaction', 'push-to-checkout', 'pre-auto-gc', 'fsmonitor-watchman', 'post-index-change', 'sendemail-validate',
];

const hit = (rule: string, reason: string): PolicyHit => ({ rule: `git: ${rule}`, reason });

function optionHead(arg: string): string {
  return arg.startsWith('--') ? arg.split('=')[0] : arg.slice(0, 2);
}

/** Every option a word spells: a long option by name, a short cluster (`-ix`) letter by letter. */
function spelled(arg: string): string[] {
  return arg.startsWith('--') ? [optionHead(arg)] : [...arg.slice(1)].map((c) => `-${c}`);
}

const CONFIG_ACTIONS = new Set(['--get', '--get-all', '--get-regexp', '--list', '-l']);

function configWrites(args: readonly string[]): boolean {
  const words = args.filter((a) => !a.startsWith('-'));
  const options = args.filter((a) => a.startsWith('-'));
  if (!options.every((o) => CONFIG_READS.has(o))) return true;
  const reads = options.some((o) => CONFIG_ACTIONS.has(o)) || words[0] === 'get' || words[0] === 'list';
  return !reads && words.length > 1;
}

function subcommandHit(sub: string, args: readonly string[]): PolicyHit | null {
  const runs = RUNS_PROGRAM[sub] ?? [];
  for (const arg of args) {
    if (arg === '--') break;
    if (!arg.startsWith('-')) continue;
    const named = spelled(arg).find((o) => runs.includes(o));
    if (named) return hit(`${sub} ${named}`, `git ${sub} ${named} names a program or hooks for git to run; under a list it is refused.`);
  }
  const word = RUNS_LINE[sub];
  if (word !== undefined && args.includes(word)) return hit(`${sub} ${word}`, `git ${sub} ${word} runs a command line; under a list it is refused.`);
  if (sub === 'config' && configWrites(args)) {
    return hit('config', 'git config that writes is refused under a list: core.pager, core.sshCommand, diff.external, core.fsmonitor and alias.* run programs.');
  }
  return null;
}

export function gitCheck(argv: readonly string[]): PolicyHit | null {
  let i = 1;
  for (; i < argv.length && argv[i].startsWith('-'); i += 1) {
    const head = optionHead(argv[i]);
    if (!SAFE_GLOBAL.has(argv[i])) {
      return hit(head, `git ${head} points git at other config, programs or repositories (-c core.pager=…, --exec-path, -C); under a list it is refused.`);
    }
  }
  const sub = argv[i];
  if (sub === undefined) return null;
  if (!SUBCOMMANDS.has(sub)) return hit(`${sub} is not a git command`, `git ${sub} is not one of git's own commands: it may be an alias (which can run a shell line) or a git-${sub} program; under a list it is refused.`);
  return subcommandHit(sub, argv.slice(i + 1));
}

export function gitFiles(): string[] {
  return ['.git/config', ...GIT_HOOKS.map((h) => `.git/hooks/${h}`)];
}
