import fc from 'fast-check';
import { requiredLiterals } from './workspace-grep.literal';

/** The flags grep compiles a pattern with (workspace-grep.ts): Unicode mode when valid in it, else legacy; null when invalid. */
function flagsOf(pattern: string, i: boolean): string | null {
  for (const flags of [`u${i ? 'i' : ''}`, i ? 'i' : '']) {
    try {
      new RegExp(pattern, flags);
      return flags;
    } catch {
      // the next mode
    }
  }
  return null;
}

const escaped = (literal: string) => literal.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

describe('requiredLiterals', () => {
  it.each([
    ['function\\s+target_\\d+7\\(', ['function', 'target_']],
    ['needle', ['needle']],
    ['a = 3', ['a = 3']],
    ['\\bword\\b', ['word']],
    ['foo(bar)?bazz', ['bazz', 'foo']],
    ['(?:abc)+xyz', ['xyz']],
    ['(?<!abc)xyz', ['xyz']],
    ['[abc]def', ['def']],
    ['[a\\]bcd]efg', ['efg']],
    ['abcd?', ['abc']],
    ['abcd*', ['abc']],
    ['abcd+', ['abc']],
    ['x{2,3}yzw', ['yzw']],
    ['abc{2}def', ['def']],
    ['a\\.b\\(c', ['a.b(c']],
    ['^hit [0-9]$', ['hit ']],
    ['café', ['caf']],
  ])('%s gives %j', (pattern, literals) => {
    expect(requiredLiterals(pattern)).toEqual(literals);
  });

  it.each([
    ['an alternation anywhere', 'abc|def'],
    ['an alternation in a group', 'abc(d|e)fgh'],
    ['a Unicode escape', '\\u0041bcd'],
    ['a hex escape', '\\x41bcd'],
    ['a property escape', '\\p{L}abcd'],
    ['a back reference', '(a)\\1bcd'],
    ['a legacy-mode literal brace', 'ab{xyz'],
    ['an identity escape of a letter (legacy mode)', '\\abcd'],
    ['runs shorter than three', 'ab.cd'],
    ['only non-ASCII', 'é€ü'],
  ])('gives none for %s', (_what, pattern) => {
    expect(requiredLiterals(pattern)).toEqual([]);
  });

  // Tokens that make the scanner's cases meet: groups, classes, quantifiers, escapes, case folding (K, the Kelvin sign, ſ).
  const token = fc.constantFrom('ab', 'c', 'K', 'k', 's', 'S', 'x7', ' ', '-', '\\(', '\\.', '(', ')', '(?:', '(?=', '(?<!', '|', '[a-c]', '[^k]', '.', '*', '+', '?', '{2}', '{0,1}', '{', '}', ']', '\\d', '\\s', '\\b', '\\w', '^', '$');
  const char = fc.constantFrom('a', 'b', 'c', 'k', 'K', '\u212a', 's', 'S', '\u017f', 'x', '7', ' ', '-', '(', '.', '\r');

  it('every line a pattern matches holds each of its literals, under the same flags (property)', () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.array(token, { maxLength: 10 }), fc.boolean(), fc.array(fc.array(char, { maxLength: 12 }), { minLength: 20, maxLength: 40 }), (tokens, i, lines) => {
        const pattern = tokens.join('');
        const flags = flagsOf(pattern, i);
        if (flags === null) return;
        const regex = new RegExp(pattern, flags);
        const literals = requiredLiterals(pattern, 1).map((l) => new RegExp(escaped(l), flags));
        for (const line of lines.map((l) => l.join(''))) {
          if (!regex.test(line)) continue;
          for (const literal of literals) expect(literal.test(line)).toBe(true);
          checked += literals.length;
        }
      }),
      { numRuns: 3000 },
    );
    expect(checked).toBeGreaterThan(1000); // the generators do make lines that match patterns with literals
  });

  it('holds printable ASCII only: no line break, so an occurrence lies within one line', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (pattern) => {
        for (const literal of requiredLiterals(pattern, 1)) expect(literal).toMatch(/^[\x20-\x7e]+$/);
      }),
    );
  });
});
