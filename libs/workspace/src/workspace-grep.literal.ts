/**
 * The runs of plain characters every match of a grep pattern must contain, found without running the
 * pattern: grep (workspace-grep.worker.ts) looks for them first, in a file's bytes and then in its text,
 * and runs the caller's expression only on the lines that hold the longest. Most files of a tree hold
 * none of a pattern's words, so most are never decoded nor split into lines.
 *
 * Sound by construction, and conservative: a run is made only of consecutive single characters written
 * outside any group, class or escape sequence, none of them quantified, in a pattern with no `|`
 * anywhere. Each such character must then be matched, in order and adjacent, by every match. Anything the
 * scan does not know for sure (an escape it does not list, a `{` that may be a quantifier or a literal)
 * ends the scan or gives no run at all; an empty answer only means every line is tested.
 *
 * A run holds printable ASCII only (no line break, so an occurrence never spans two lines). Under the
 * `i` flag it is searched with the pattern's own flags, so case folding is the pattern's.
 */

/** Characters that stand for themselves outside a class, in both Unicode and legacy mode. */
const PLAIN = /^[A-Za-z0-9_ !"#%&',\-/:;<=>@`~]$/;
/** Characters whose escape stands for the character itself (`\(` is `(`), in both modes. */
const ESCAPED_PLAIN = /^[\^$\\.*+?()[\]{}|/]$/;
/** Escapes of one character that are no literal (a class like \d, an assertion like \b, a control like \n). */
const SHORT_ESCAPES = /^[dDsSwWbBnrtvf]$/;

/** The required runs of `pattern` of at least `minLength` characters, longest first (none when none is known). */
export function requiredLiterals(pattern: string, minLength = 3): string[] {
  if (hasAlternation(pattern)) return [];
  const runs: string[] = [];
  let run = '';
  let depth = 0;
  const end = () => {
    if (depth === 0 && run.length >= minLength && !runs.includes(run)) runs.push(run);
    run = '';
  };
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return [];
      if (ESCAPED_PLAIN.test(next)) {
        if (depth === 0) run += next;
        i += 2;
        continue;
      }
      if (!SHORT_ESCAPES.test(next)) return []; // \u, \x, \c, \p, \k, back references: not scanned
      end();
      i += 2;
      continue;
    }
    if (c === '[') {
      end();
      const close = classEnd(pattern, i);
      if (close < 0) return [];
      i = close + 1;
      continue;
    }
    if (c === '(') {
      end();
      depth++;
      i++;
      continue;
    }
    if (c === ')') {
      end();
      depth--;
      if (depth < 0) return [];
      i++;
      continue;
    }
    if (c === '*' || c === '+' || c === '?' || c === '{') {
      // The atom before a quantifier is optional or repeated: it leaves the run (with everything after it).
      run = run.slice(0, -1);
      end();
      if (c !== '{') {
        i++;
        continue;
      }
      const close = quantifierEnd(pattern, i);
      if (close < 0) return []; // a legacy-mode literal `{`, or something unforeseen
      i = close + 1;
      continue;
    }
    if (depth === 0 && PLAIN.test(c)) {
      run += c;
      i++;
      continue;
    }
    end(); // `.`, `^`, `$`, `]`, `}`, any other character: not taken, the run ends
    i++;
  }
  end();
  return runs.sort((a, b) => b.length - a.length);
}

/** Whether an unescaped `|` appears outside a class. */
function hasAlternation(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const close = classEnd(pattern, i);
      if (close < 0) return true;
      i = close;
    } else if (c === '|') return true;
  }
  return false;
}

/** The index of the `]` closing the class opened at `open` (escapes skipped), or -1. */
function classEnd(pattern: string, open: number): number {
  for (let i = open + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return -1;
}

/** The index of the `}` closing a quantifier `{n}`, `{n,}` or `{n,m}` opened at `open`, or -1. */
function quantifierEnd(pattern: string, open: number): number {
  const m = /^\{\d+(,\d*)?\}/.exec(pattern.slice(open));
  return m ? open + m[0].length - 1 : -1;
}
