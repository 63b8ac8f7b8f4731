import type { PolicyHit } from './command-line';

/**
 * sed and awk carry programs of their own. A sed script is scanned command by command and refused when
 * it runs (`e`, `s///e`) or writes (`w`, `W`, `s///w`) or has anything the scan does not know; an awk
 * program is refused when it can run or write (`system()`, pipes, `getline`, `print >`, `@load`).
 * Scripts from files are refused: their text is not on the line.
 */

class SedScan {
  private i = 0;
  constructor(private readonly s: string) {}

  /** The first command letter that runs, writes or is unknown; null when the script is only reads and edits of the stream. */
  unsafe(): string | null {
    for (;;) {
      while (this.i < this.s.length && /[\s;{}]/.test(this.s[this.i])) this.i += 1;
      if (this.i >= this.s.length) return null;
      if (this.s[this.i] === '#') this.toEnd(/\n/);
      else {
        if (!this.address()) return 'address';
        const found = this.command(this.s[this.i++]);
        if (found !== null) return found;
      }
    }
  }

  private toEnd(stop: RegExp): void {
    while (this.i < this.s.length && !stop.test(this.s[this.i])) this.i += this.s[this.i] === '\\' ? 2 : 1;
  }

  private delimited(d: string): boolean {
    while (this.i < this.s.length && this.s[this.i] !== d) this.i += this.s[this.i] === '\\' ? 2 : 1;
    this.i += 1;
    return this.i <= this.s.length;
  }

  private one(): boolean {
    const c = this.s[this.i];
    if (c === '/' || c === '\\') {
      this.i += c === '/' ? 1 : 2;
      return this.delimited(this.s[this.i - 1]);
    }
    if (c === '$') this.i += 1;
    else while (this.i < this.s.length && /[0-9~+]/.test(this.s[this.i])) this.i += 1;
    return true;
  }

  private address(): boolean {
    if (!this.one()) return false;
    if (this.s[this.i] === ',') {
      this.i += 1;
      if (!this.one()) return false;
    }
    while (/[\s!]/.test(this.s[this.i] ?? '')) this.i += 1;
    return true;
  }

  private command(c: string | undefined): string | null {
    if (c === undefined) return null;
    if (c === 's' || c === 'y') {
      const d = this.s[this.i++];
      if (d === undefined || /[\s\\]/.test(d) || !this.delimited(d) || !this.delimited(d)) return c;
      if (c === 'y') return null;
      while (this.i < this.s.length && /[0-9gpiImMew]/.test(this.s[this.i])) {
        if (this.s[this.i] === 'e' || this.s[this.i] === 'w') return `s///${this.s[this.i]}`;
        this.i += 1;
      }
      return null;
    }
    if ('aicrR:bBtTqQlL'.includes(c)) this.toEnd('aicrR'.includes(c) ? /\n/ : /[\n;}]/);
    else if (!'=dDgGhHnNpPxzFv{}'.includes(c)) return c;
    return null;
  }
}

export function sedCheck(argv: readonly string[]): PolicyHit | null {
  const scripts: string[] = [];
  let i = 1;
  const positionals: string[] = [];
  for (; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') positionals.push(arg);
    else if (arg.startsWith('--expression')) scripts.push(arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i] ?? '');
    else if (arg.startsWith('--file') || (!arg.startsWith('--') && /^-[a-zA-Z]*f/.test(arg))) return { rule: 'sed: -f', reason: 'sed -f runs a script from a file, which no rule can see; under a list it is refused.' };
    else if (!arg.startsWith('--') && /^-[a-zA-Z]*e/.test(arg)) scripts.push(arg.length > arg.indexOf('e') + 1 ? arg.slice(arg.indexOf('e') + 1) : argv[++i] ?? '');
    else if (arg === '-l' || arg === '--line-length') i += 1;
  }
  if (scripts.length === 0 && positionals.length) scripts.push(positionals[0]);
  for (const script of scripts) {
    const found = new SedScan(script).unsafe();
    if (found !== null) return { rule: `sed: ${found}`, reason: `the sed script has ${found}, which runs a command, writes a file or is not understood; under a list it is refused.` };
  }
  return null;
}

const AWK_RUNS = /\bsystem\b|getline|\||@|\bprintf?\b[^;}\n]*>|\bclose\b/;
const AWK_VALUED = ['-F', '-v', '-e', '--field-separator', '--assign', '--source'];
const AWK_FLAGS = ['--posix', '--traditional', '--re-interval', '-P', '-c', '-b', '-S', '--sandbox', '-n'];

export function awkCheck(name: string, argv: readonly string[]): PolicyHit | null {
  const programs: string[] = [];
  let positional: string | null = null;
  for (let i = 1; i < argv.length; i += 1) {
    const arg = argv[i];
    const head = arg.startsWith('--') ? arg.split('=')[0] : arg.slice(0, 2);
    if (arg === '--') {
      positional ??= argv[i + 1] ?? null;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional ??= arg;
      continue;
    }
    if (AWK_FLAGS.includes(arg)) continue;
    if (!AWK_VALUED.includes(head)) return { rule: `${name}: ${head}`, reason: `${name} ${head} is not an option the policy knows (-f, -E, -l and --load read programs from files); under a list it is refused.` };
    const value = arg.startsWith('--') ? (arg.includes('=') ? arg.slice(head.length + 1) : argv[++i] ?? '') : arg.length > 2 ? arg.slice(2) : argv[++i] ?? '';
    if (head === '-e' || head === '--source') programs.push(value);
  }
  if (programs.length === 0 && positional !== null) programs.push(positional);
  const runs = programs.find((p) => AWK_RUNS.test(p));
  return runs === undefined ? null : { rule: `${name}: runs or writes`, reason: `the ${name} program can run commands or write files (system(), pipes, getline, print >); under a list it is refused.` };
}
