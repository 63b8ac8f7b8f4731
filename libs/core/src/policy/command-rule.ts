import { lookup, normalizePath, programName } from './command-line';

/**
 * A command rule of the owner's policy: a program and the arguments it must carry, written as plain words
 * (`npm test`, `git push --force`, `rm -rf`).
 *   allow  narrow: the program word exactly as written (a bare name is looked up on PATH, a path is that
 *          file), and the line's arguments begin with the rule's words, in order.
 *   deny   wide: the program by name under any path or case (`/bin/rm`, `./RM`), each option present in
 *          any order or spelling (`-fr`, `-r -f`, `--recursive --force`, `--rec`), each other word present
 *          among the arguments in order.
 */
export interface CommandRule {
  kind: 'allow' | 'deny';
  index: number;
  text: string;
  program: string;
  args: string[];
}

const WORD = /^[^\s;&|<>()$`'"\\*?[\]{}~#]+$/;

/** The rule's words, or why it is not a rule (shell syntax, quotes and globs have no meaning in one). */
export function parseCommandRule(text: string): { ok: true; program: string; args: string[] } | { ok: false; problem: string } {
  const words = text.trim().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return { ok: false, problem: 'is empty' };
  const bad = words.find((w) => !WORD.test(w));
  if (bad !== undefined) return { ok: false, problem: `has ${JSON.stringify(bad)}: a rule is plain words (a program and its arguments), without quotes, globs or shell syntax` };
  if (words[0].startsWith('-')) return { ok: false, problem: 'must start with a program, not an option' };
  return { ok: true, program: words[0], args: words.slice(1) };
}

export function ruleLabel(rule: CommandRule): string {
  return `${rule.kind}[${rule.index}]: ${rule.text}`;
}

export function allowMatches(rule: CommandRule, argv: readonly string[]): boolean {
  const program = rule.program.includes('/') ? normalizePath(argv[0]) === normalizePath(rule.program) : argv[0] === rule.program;
  return program && rule.args.every((word, i) => argv[i + 1] === word);
}

/** Spellings of one option, per program: the first entry is the option's name. */
const ALIASES: Record<string, string[][]> = {
  rm: [['recursive', '-r', '-R', '--recursive'], ['force', '-f', '--force'], ['dir', '-d', '--dir'], ['interactive', '-i', '--interactive']],
  cp: [['recursive', '-r', '-R', '--recursive'], ['force', '-f', '--force'], ['archive', '-a', '--archive']],
  mv: [['force', '-f', '--force']],
  chmod: [['recursive', '-R', '--recursive']],
  chown: [['recursive', '-R', '--recursive']],
  chgrp: [['recursive', '-R', '--recursive']],
  git: [['force', '-f', '--force', '--force-with-lease', '--force-if-includes'], ['delete', '-d', '--delete'], ['hard', '--hard'], ['all', '-a', '--all']],
};

function optionName(program: string, spelling: string): string {
  return lookup(ALIASES, program)?.find((names) => names.includes(spelling))?.[0] ?? spelling;
}

/** Every option spelling of an argument list (short clusters split), up to `--`; the rest are positional. */
function splitArgs(program: string, args: readonly string[]): { options: string[]; positionals: string[] } {
  const options: string[] = [];
  const positionals: string[] = [];
  let ended = false;
  for (const arg of args) {
    if (ended || arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      if (program === 'git' && arg.startsWith('+')) options.push('--force');
    } else if (arg === '--') ended = true;
    else if (arg.startsWith('--')) options.push(arg.split('=')[0]);
    else for (const c of arg.slice(1)) options.push(`-${c}`);
  }
  return { options, positionals };
}

function longNames(program: string): string[] {
  return (lookup(ALIASES, program) ?? []).flatMap((names) => names.slice(1).filter((n) => n.startsWith('--')));
}

/** Whether the option a rule names is given, in any spelling, including a long option's unambiguous-or-not prefix. */
function optionGiven(program: string, wanted: string, given: readonly string[]): boolean {
  const name = optionName(program, wanted);
  return given.some((spelling) => {
    if (optionName(program, spelling) === name) return true;
    if (!spelling.startsWith('--') || spelling.length < 3) return false;
    if (wanted.startsWith('--') && wanted.startsWith(spelling)) return true;
    return longNames(program).some((long) => long.startsWith(spelling) && optionName(program, long) === name);
  });
}

function sameWord(a: string, b: string): boolean {
  return a.includes('/') || b.includes('/') ? normalizePath(a) === normalizePath(b) : a === b;
}

export function denyMatches(rule: CommandRule, argv: readonly string[]): boolean {
  const program = programName(argv[0]);
  if (program !== programName(rule.program)) return false;
  const wanted = splitArgs(program, rule.args);
  const given = splitArgs(program, argv.slice(1));
  if (!wanted.options.every((option) => optionGiven(program, option, given.options))) return false;
  let at = 0;
  for (const word of wanted.positionals) {
    while (at < given.positionals.length && !sameWord(given.positionals[at], word)) at += 1;
    if (at === given.positionals.length) return false;
    at += 1;
  }
  return true;
}
