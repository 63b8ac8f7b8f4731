import { lookup, programName, type PolicyHit } from './command-line';

/**
 * Programs that run another program. The transparent ones (`timeout 60 npm test`) are unwrapped so the
 * program they run is what the rules check; the ones that change privilege, leave the process group,
 * take their arguments from input or need a shell are refused under a list.
 */

interface WrapperSpec {
  valued: string[];
  flags: string[];
  /** Positional words before the wrapped program (timeout's duration). */
  leading: number;
}

const TRANSPARENT: Record<string, WrapperSpec> = {
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], flags: ['--preserve-status', '--foreground', '-v', '--verbose'], leading: 1 },
  nice: { valued: ['-n', '--adjustment'], flags: [], leading: 0 },
  nohup: { valued: [], flags: [], leading: 0 },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'], flags: [], leading: 0 },
  time: { valued: [], flags: ['-p'], leading: 0 },
  env: { valued: ['-u', '--unset'], flags: ['-i', '--ignore-environment', '-', '-0', '--null'], leading: 0 },
};

const RUNNERS: Record<string, string> = {
  sudo: 'runs a program as another user',
  doas: 'runs a program as another user',
  su: 'runs a program as another user',
  pkexec: 'runs a program as another user',
  runuser: 'runs a program as another user',
  setpriv: 'runs a program with other privileges',
  chroot: 'runs a program under another root',
  unshare: 'runs a program in other namespaces',
  nsenter: 'runs a program in other namespaces',
  setsid: 'runs a program outside the process group, where a kill does not reach it',
  'systemd-run': 'runs a program outside the process group, where a kill does not reach it',
  tmux: 'runs programs outside the process group, where a kill does not reach them',
  screen: 'runs programs outside the process group, where a kill does not reach them',
  at: 'runs a program later, outside the process group',
  batch: 'runs a program later, outside the process group',
  xargs: 'builds the command from its input, which no rule can see',
  parallel: 'builds commands from its input, which no rule can see',
  watch: 'runs a shell command line',
  flock: 'runs a program or a shell command line',
  ionice: 'runs another program',
  chrt: 'runs another program',
  taskset: 'runs another program',
  strace: 'runs another program',
  ltrace: 'runs another program',
  gdb: 'runs another program and commands of its own',
  valgrind: 'runs another program',
  busybox: 'is every program at once',
  script: 'runs a shell command line',
  expect: 'runs scripts of its own',
  unbuffer: 'runs another program',
};

const BUILTINS = new Set(['cd', 'export', 'source', '.', 'eval', 'exec', 'command', 'builtin', 'set', 'unset', 'alias', 'trap', 'ulimit', 'umask', 'read', 'type', 'hash', 'declare', 'typeset', 'local', 'let', 'shopt', 'enable', 'coproc', 'fc', 'history', 'jobs', 'fg', 'bg', 'wait', 'disown']);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

type Unwrapped = { ok: true; inner: string[] | null } | { ok: false; hit: PolicyHit };

function wrapped(name: string, spec: WrapperSpec, argv: readonly string[]): Unwrapped {
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-') && !/^-\d+$/.test(argv[i])) {
    const arg = argv[i];
    if (arg === '--') {
      i += 1;
      break;
    }
    const head = arg.startsWith('--') ? arg.split('=')[0] : arg.slice(0, 2);
    if (spec.flags.includes(arg)) i += 1;
    else if (spec.valued.includes(head)) i += arg.includes('=') || (!arg.startsWith('--') && arg.length > 2) ? 1 : 2;
    else return { ok: false, hit: { rule: `${name}: ${head}`, reason: `${name} ${head} is not an option the policy knows is safe; under a list it is refused.` } };
  }
  if (name === 'nice' && /^-\d+$/.test(argv[i] ?? '')) i += 1;
  if (name === 'env' && i < argv.length && ASSIGNMENT.test(argv[i])) {
    return { ok: false, hit: { rule: 'env: NAME=value', reason: 'env sets variables (LD_PRELOAD, NODE_OPTIONS, GIT_*, PATH) that change what a program runs; under a list it is refused.' } };
  }
  i += spec.leading;
  return { ok: true, inner: i < argv.length ? argv.slice(i) : null };
}

/** The argv and every program it wraps, outermost first, and why a wrapper is refused under a list (null: it is not). */
export function unwrapCommand(argv: readonly string[]): { chain: string[][]; hit: PolicyHit | null } {
  const chain: string[][] = [];
  let current: string[] | null = [...argv];
  while (current) {
    chain.push(current);
    const name = programName(current[0]);
    if (BUILTINS.has(name)) return { chain, hit: { rule: `${name}: shell builtin`, reason: `${name} is a shell builtin; a line under a list runs without a shell.` } };
    const runner = lookup(RUNNERS, name);
    if (runner) return { chain, hit: { rule: `${name}: runs another program`, reason: `${name} ${runner}; under a list it is refused.` } };
    const spec = lookup(TRANSPARENT, name);
    if (!spec) break;
    const next = wrapped(name, spec, current);
    if (!next.ok) return { chain, hit: next.hit };
    current = next.inner;
  }
  return { chain, hit: null };
}
