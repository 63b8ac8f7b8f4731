import { lookup, normalizePath, programName, type PolicyHit } from './command-line';
import { gitCheck, gitFiles } from './command-git-rules';
import { interpreterCheck } from './command-interpreters';
import { awkCheck, sedCheck } from './command-sed-awk';

/**
 * The built-in option rules: per program, the options that make an allowed program run another one
 * (`find -exec`, `rg --pre`, `tar --to-command`, `make --eval`), and the files whose text decides what
 * a line runs (`package.json` for `npm test`, the Makefile for `make`, a script given to an interpreter),
 * which the gate asks about: were they written through Palimpsest?
 */

export interface ProgramCheck {
  hit: PolicyHit | null;
  files: string[];
}

/** Options that run a program, per program: long names match their prefixes (`--to-comm`), short letters inside clusters. */
const RUNS: Record<string, { long: string[]; short: string[]; words?: string[] }> = {
  find: { long: [], short: [], words: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'] },
  rg: { long: ['--pre', '--hostname-bin'], short: [] },
  tar: { long: ['--to-command', '--checkpoint-action', '--use-compress-program', '--rsh-command', '--info-script', '--new-volume-script', '--rmt-command'], short: ['I', 'F'] },
  rsync: { long: ['--rsh', '--rsync-path'], short: ['e'] },
  ssh: { long: [], short: ['o', 'F'] },
  scp: { long: [], short: ['o', 'F', 'S'] },
  sftp: { long: [], short: ['o', 'F', 'S'] },
  man: { long: ['--pager', '--html', '--browser'], short: ['P', 'H'] },
  zip: { long: ['--unzip-command'], short: [], words: ['-TT'] },
  vim: { long: ['--cmd'], short: ['c', 'S', 'u'] },
  make: { long: ['--directory', '--eval', '--include-dir'], short: ['C', 'E', 'I'] },
};
const ALIAS: Record<string, string> = { vi: 'vim', nvim: 'vim', ex: 'vim', view: 'vim', gvim: 'vim', gmake: 'make', rga: 'rg' };

/** The run-a-program option one argument spells, if any. */
function runOption(name: string, table: { long: string[]; short: string[]; words?: string[] }, arg: string, first: boolean): string | undefined {
  if (table.words?.includes(arg)) return arg;
  if (arg.startsWith('--')) {
    const head = arg.split('=')[0];
    return table.long.find((long) => head.length >= 5 && long.startsWith(head));
  }
  // tar's first word may be an old-style cluster without a dash (`tar xIf a.tar`).
  const cluster = arg.startsWith('-') ? arg.slice(1) : name === 'tar' && first ? arg : '';
  const short = table.short.find((c) => cluster.includes(c));
  if (short) return `-${short}`;
  return table === RUNS.vim && arg.startsWith('+') ? '+command' : undefined;
}

function runsHit(name: string, argv: readonly string[]): PolicyHit | null {
  const table = lookup(RUNS, lookup(ALIAS, name) ?? name);
  if (!table) return null;
  let ended = false;
  for (let i = 1; i < argv.length; i += 1) {
    // find's expression follows its `--`, so only word-style tables read past it.
    if (argv[i] === '--') ended = true;
    const named = ended ? (table.words?.includes(argv[i]) ? argv[i] : undefined) : runOption(name, table, argv[i], i === 1);
    if (named) return { rule: `${name}: ${named}`, reason: `${name} ${named} runs another program or commands of its own; under a list it is refused.` };
  }
  return null;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_.]*[+:?!]?=/;

function makeCheck(argv: readonly string[]): ProgramCheck {
  const files = ['Makefile', 'makefile', 'GNUmakefile'];
  for (let i = 1; i < argv.length; i += 1) {
    const arg = argv[i];
    if (ASSIGNMENT.test(arg)) return { hit: { rule: 'make: NAME=value', reason: 'a variable set on the make line can replace the commands of a recipe (SHELL=, CC=); under a list it is refused.' }, files };
    const file = /^(-f|--file|--makefile)(=|$)/.test(arg) ? (arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i]) : /^-f./.test(arg) ? arg.slice(2) : null;
    if (file) files.push(normalizePath(file));
  }
  return { hit: runsHit('make', argv), files };
}

const PACKAGE_FILES: Record<string, string[]> = {
  npm: ['package.json', '.npmrc'],
  npx: ['package.json', '.npmrc'],
  pnpm: ['package.json', '.npmrc', 'pnpm-workspace.yaml', '.pnpmfile.cjs'],
  yarn: ['package.json', '.yarnrc', '.yarnrc.yml', '.pnp.cjs'],
  bun: ['package.json', 'bunfig.toml'],
};
const PACKAGE_READS = new Set(['--version', '-v', 'help', 'ls', 'list', 'view', 'info', 'outdated', 'whoami', 'root', 'prefix', 'bin', 'search', 'why', 'explain']);
const PACKAGE_RUNNERS = new Set(['exec', 'x', 'dlx', 'explore', 'edit', 'create', 'init', 'set', 'config', 'c']);
const PACKAGE_OPTIONS = ['--script-shell', '--node-options', '-c', '--call', '--prefix', '-C', '--dir', '--cwd', '--userconfig', '--globalconfig', '--shell'];

function packageCheck(name: string, argv: readonly string[]): ProgramCheck {
  const option = argv.slice(1).find((a) => PACKAGE_OPTIONS.includes(a.split('=')[0]));
  if (option) return { hit: { rule: `${name}: ${option.split('=')[0]}`, reason: `${name} ${option.split('=')[0]} changes which shell, options or package runs the scripts; under a list it is refused.` }, files: [] };
  const words = argv.slice(1).filter((a) => !a.startsWith('-'));
  const sub = words[0];
  if (name === 'npx') return { hit: null, files: [...PACKAGE_FILES.npx, ...(sub ? [`node_modules/.bin/${sub}`] : [])] };
  if (sub !== undefined && PACKAGE_RUNNERS.has(sub)) return { hit: { rule: `${name}: ${sub}`, reason: `${name} ${sub} runs or configures a program the line does not name; under a list it is refused.` }, files: [] };
  if (argv.slice(1).some((a) => PACKAGE_READS.has(a)) && (sub === undefined || PACKAGE_READS.has(sub))) return { hit: null, files: [] };
  return { hit: null, files: lookup(PACKAGE_FILES, name) ?? [] };
}

/** The built-in rules of one argv's program, and the workspace files that decide what it runs. */
export function programCheck(argv: readonly string[]): ProgramCheck {
  const name = programName(argv[0]);
  const local = argv[0].includes('/') && !argv[0].startsWith('/') ? [normalizePath(argv[0])] : [];
  const own = programRules(name, argv);
  return { hit: own.hit, files: [...local, ...own.files] };
}

function programRules(name: string, argv: readonly string[]): ProgramCheck {
  if (name === 'git') return { hit: gitCheck(argv), files: gitFiles() };
  if (name === 'sed' || name === 'gsed') return { hit: sedCheck(argv), files: [] };
  if (['awk', 'gawk', 'mawk', 'nawk'].includes(name)) return { hit: awkCheck(name, argv), files: [] };
  if (name === 'make' || name === 'gmake') return makeCheck(argv);
  if (lookup(PACKAGE_FILES, name)) return packageCheck(name, argv);
  const interpreter = interpreterCheck(name, argv);
  if (interpreter) return interpreter;
  return { hit: runsHit(name, argv), files: [] };
}
