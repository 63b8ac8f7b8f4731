import { normalizePath, type PolicyHit } from './command-line';

/**
 * Interpreters under a list: code given inline (`python -c`, `node -e`, `perl -e`, `sh -c`), loaded by an
 * option (`node --require`, `perl -M`, `ruby -r`) or read from input (no script, `-`, `-i`) is refused;
 * a script file is what runs, so it is handed on to the written-file check.
 */

interface InterpreterSpec {
  /** Options whose value is code, or that load code or read it from input. */
  code: string[];
  /** Other options that take a value. */
  valued: string[];
  /** Options that only print something and exit, so no script is needed. */
  info: string[];
  /** The option naming a module to run as the script (`python -m`), if any. */
  module?: string;
}

const SHELL: InterpreterSpec = { code: ['-c', '-s', '-i', '--rcfile', '--init-file', '--command'], valued: ['-o', '-O'], info: ['--version', '--help'] };
const PYTHON: InterpreterSpec = { code: ['-c', '-i'], valued: ['-W', '-X', '-Q'], info: ['-V', '--version', '-h', '--help', '-VV'], module: '-m' };
const NODE: InterpreterSpec = {
  code: ['-e', '--eval', '-p', '--print', '-r', '--require', '--import', '--loader', '--experimental-loader', '-i', '--interactive', '--inspect', '--inspect-brk', '--inspect-wait', '--env-file', '--env-file-if-exists'],
  valued: ['--input-type', '--conditions', '-C', '--title'],
  info: ['-v', '--version', '-h', '--help'],
  module: '--run',
};
const PERL: InterpreterSpec = { code: ['-e', '-E', '-M', '-m', '-x', '-d'], valued: ['-I'], info: ['-v', '-V', '--version', '-h', '--help'] };
const RUBY: InterpreterSpec = { code: ['-e', '-r', '--require', '-x'], valued: ['-I', '-C', '-E', '--encoding'], info: ['-v', '--version', '-h', '--help'] };
const PHP: InterpreterSpec = { code: ['-r', '-a', '-B', '-R', '-F', '-E', '-d'], valued: ['-c', '-z'], info: ['-v', '--version', '-h', '--help'] };
const LUA: InterpreterSpec = { code: ['-e', '-i', '-l'], valued: [], info: ['-v'] };
const RSCRIPT: InterpreterSpec = { code: ['-e'], valued: [], info: ['--version', '--help'] };

function specOf(name: string): InterpreterSpec | null {
  if (['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash'].includes(name)) return SHELL;
  if (/^(python(\d+(\.\d+)?)?|pypy3?)$/.test(name)) return PYTHON;
  if (['node', 'nodejs', 'bun', 'ts-node', 'tsx'].includes(name)) return NODE;
  if (/^perl(\d+(\.\d+)*)?$/.test(name)) return PERL;
  if (name === 'ruby' || name === 'irb') return RUBY;
  if (/^php(\d+(\.\d+)?)?$/.test(name)) return PHP;
  if (/^(lua(\d+(\.\d+)?)?|luajit)$/.test(name)) return LUA;
  return name === 'rscript' ? RSCRIPT : null;
}

const inlineHit = (name: string, option: string): PolicyHit => ({
  rule: `${name}: ${option}`,
  reason: `${name} ${option} runs code that is not a file on disk, which no rule can check; under a list it is refused.`,
});

function moduleFiles(name: string, module: string): string[] {
  if (name === 'node' || name === 'nodejs' || name === 'bun') return ['package.json'];
  const path = module.replace(/\./g, '/');
  return [`${path}.py`, `${path}/__main__.py`, `${path}/__init__.py`];
}

/** One option word of an interpreter: a hit, how many words it takes, or a module it runs. */
function option(name: string, spec: InterpreterSpec, argv: readonly string[], i: number): { hit: PolicyHit } | { take: number; module?: string } {
  const arg = argv[i];
  if (arg.startsWith('--')) {
    const head = arg.split('=')[0];
    if (spec.code.includes(head)) return { hit: inlineHit(name, head) };
    const value = arg.includes('=') ? arg.slice(head.length + 1) : argv[i + 1];
    if (head === spec.module) return { take: arg.includes('=') ? 1 : 2, module: value };
    return { take: spec.valued.includes(head) && !arg.includes('=') ? 2 : 1 };
  }
  for (let j = 1; j < arg.length; j += 1) {
    const short = `-${arg[j]}`;
    if (spec.code.includes(short)) return { hit: inlineHit(name, short) };
    const attached = j + 1 < arg.length;
    if (short === spec.module) return { take: attached ? 1 : 2, module: attached ? arg.slice(j + 1) : argv[i + 1] };
    if (spec.valued.includes(short)) return { take: attached ? 1 : 2 };
  }
  return { take: 1 };
}

/** Null when the program is no interpreter; else the refusal, or the files the line runs. */
export function interpreterCheck(name: string, argv: readonly string[]): { hit: PolicyHit | null; files: string[] } | null {
  const spec = specOf(name);
  if (!spec) return null;
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-') && argv[i] !== '-') {
    if (argv[i] === '--') {
      i += 1;
      break;
    }
    const step = option(name, spec, argv, i);
    if ('hit' in step) return { hit: step.hit, files: [] };
    if (step.module !== undefined) return { hit: null, files: moduleFiles(name, step.module) };
    i += step.take;
  }
  const script = argv[i];
  if (script === undefined || script === '-') {
    if (script === undefined && argv.slice(1).some((a) => spec.info.includes(a))) return { hit: null, files: [] };
    return { hit: { rule: `${name}: reads code from input`, reason: `${name} without a script file reads code from its input, which no rule can check; under a list it is refused.` }, files: [] };
  }
  return { hit: null, files: script.startsWith('/') ? [] : [normalizePath(script)] };
}
