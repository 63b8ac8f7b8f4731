import fc from 'fast-check';
import { parseStrictJson, StrictJsonError, type StrictJsonErrorCode } from './strict-json';

const refusal = (text: string): StrictJsonErrorCode | 'accepted' => {
  try {
    parseStrictJson(text);
    return 'accepted';
  } catch (err) {
    if (err instanceof StrictJsonError) return err.code;
    throw err;
  }
};

/** Any UTF-16 code unit (lone surrogates included) or any code point. */
const ANY_UNIT = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

/** JSON text of an object whose member `key` is written twice, members in the given order. */
function objectText(members: Array<[string, string]>): string {
  return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}

/** Wraps `inner` (JSON text) in arrays and objects with siblings, `levels` deep. */
const wrapped = (inner: string) =>
  fc
    .array(
      fc.oneof(
        fc.record({ kind: fc.constant('array' as const), before: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }), after: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }) }),
        fc.record({ kind: fc.constant('object' as const), key: fc.string(), sibling: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }) }),
      ),
      { maxLength: 6 },
    )
    .map((levels) =>
      levels.reduce((text, level) => {
        if (level.kind === 'array') {
          return `[${[...level.before.map((v) => JSON.stringify(v)), text, ...level.after.map((v) => JSON.stringify(v))].join(',')}]`;
        }
        const siblings = Object.entries(level.sibling).filter(([k]) => k !== level.key);
        return objectText([...siblings.map(([k, v]): [string, string] => [k, JSON.stringify(v)]), [level.key, text]]);
      }, inner),
    );

describe('parseStrictJson: exactly the values JSON.parse gives for valid JSON', () => {
  it('round-trips random JSON values written by JSON.stringify (compact and indented)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: ANY_UNIT }), fc.boolean(), (value, indent) => {
        const text = JSON.stringify(value, null, indent ? 2 : undefined);
        expect(parseStrictJson(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips random doubles and integer tokens', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = JSON.stringify(n);
        expect(Object.is(parseStrictJson(text), JSON.parse(text))).toBe(true);
      }),
    );
    expect(Object.is(parseStrictJson('-0'), -0)).toBe(true);
    expect(parseStrictJson('[1E2, 1e-2, -0.5e+1, 123456789012345678901234567890]')).toEqual([100, 0.01, -5, 1.2345678901234568e29]);
  });

  it('keeps an own "__proto__" member as JSON.parse does, without touching the prototype', () => {
    const parsed = parseStrictJson('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parsed).toEqual(JSON.parse('{"__proto__":{"polluted":true},"a":1}'));
  });

  it('decodes every escape, including surrogate pairs and escaped lone surrogates', () => {
    expect(parseStrictJson('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\\ud800"')).toBe('"\\/\b\f\n\r\t\u00e9\u{1F600}\ud800');
    expect(parseStrictJson('"\u2028\u2029\u0085"')).toBe('\u2028\u2029\u0085');
  });

  it('hands number tokens to a reviver verbatim, with depth and key', () => {
    const seen: Array<[string, number, string | number | null]> = [];
    const value = parseStrictJson('{"id":18446744073709551615,"a":[1.50,2e0]}', {
      reviveNumber: (token, depth, key) => {
        seen.push([token, depth, key]);
        return token;
      },
    });
    expect(seen).toEqual([
      ['18446744073709551615', 1, 'id'],
      ['1.50', 2, 0],
      ['2e0', 2, 1],
    ]);
    expect(value).toEqual({ id: '18446744073709551615', a: ['1.50', '2e0'] });
  });
});

describe('parseStrictJson: duplicate member names are refused at any depth', () => {
  it('refuses any injected duplicate, wherever it sits and whatever the values', () => {
    const withDuplicate = fc
      .tuple(
        fc.dictionary(fc.string({ unit: ANY_UNIT }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 5 }),
        fc.nat(),
        fc.nat(),
        fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
      )
      .map(([dict, pick, at, other]) => {
        const members = Object.entries(dict).map(([k, v]): [string, string] => [k, JSON.stringify(v)]);
        const [key, original] = members[pick % members.length];
        members.splice(at % (members.length + 1), 0, [key, other === undefined ? original : JSON.stringify(other)]);
        return objectText(members);
      })
      .chain(wrapped);
    fc.assert(
      fc.property(withDuplicate, (text) => {
        expect(refusal(text)).toBe('duplicate_key');
      }),
      { numRuns: 1000 },
    );
  });

  it('compares names after unescaping', () => {
    expect(refusal('{"a":1,"\\u0061":1}')).toBe('duplicate_key');
    expect(refusal('{"\\u00e9":1,"\u00e9":2}')).toBe('duplicate_key');
    expect(refusal('{"\\ud83d\\ude00":1,"\u{1F600}":2}')).toBe('duplicate_key');
    expect(refusal('[{"x":{"y":[{"z":1,"z":1}]}}]')).toBe('duplicate_key');
    expect(refusal('{"a":1,"A":1,"a ":1}')).toBe('accepted');
  });

  it('reports where the repeated name starts', () => {
    try {
      parseStrictJson('{"a":1,"a":2}');
      throw new Error('accepted');
    } catch (err) {
      expect(err).toMatchObject({ code: 'duplicate_key', offset: 7 });
    }
  });
});

describe('parseStrictJson: the RFC 8259 grammar and nothing more', () => {
  it.each([
    ['', 'empty text'],
    ['   ', 'whitespace only'],
    ['\ufeff{}', 'byte-order mark'],
    ['{"a":1,}', 'trailing comma in object'],
    ['[1,]', 'trailing comma in array'],
    ['[,1]', 'leading comma'],
    ['{"a" 1}', 'missing colon'],
    ['{a:1}', 'unquoted name'],
    ["{'a':1}", 'single quotes'],
    ['{"a":1}/* c */', 'comment'],
    ['// c\n1', 'line comment'],
    ['01', 'leading zero'],
    ['-01', 'negative leading zero'],
    ['1.', 'fraction without digits'],
    ['.5', 'fraction without integer part'],
    ['1e', 'exponent without digits'],
    ['+1', 'plus sign'],
    ['0x10', 'hex'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['-', 'lone minus'],
    ['tru', 'truncated literal'],
    ['True', 'capitalised literal'],
    ['nul', 'truncated null'],
    ['"abc', 'unterminated string'],
    ['"a\tb"', 'raw tab in string'],
    ['"a\nb"', 'raw LF in string'],
    ['"a\u0000b"', 'raw NUL in string'],
    ['"\\x41"', 'unknown escape'],
    ['"\\u12"', 'short unicode escape'],
    ['"\\u12G4"', 'non-hex unicode escape'],
    ['"\\', 'dangling backslash'],
    ['{} {}', 'two values'],
    ['[1] x', 'trailing garbage'],
    ['[', 'unclosed array'],
    ['{"a":1', 'unclosed object'],
    ['{"a":1]', 'mismatched brackets'],
    ['\u00a01', 'non-JSON whitespace'],
  ])('refuses %j (%s)', (text) => {
    expect(refusal(text)).toBe('invalid_json');
  });

  it('accepts RFC whitespace around tokens', () => {
    expect(parseStrictJson(' \t\n\r{ "a" : [ 1 , true , null ] } \n')).toEqual({ a: [1, true, null] });
  });

  it('refuses numbers that are not finite doubles', () => {
    expect(refusal('1e400')).toBe('number_out_of_range');
    expect(refusal('[-1e309]')).toBe('number_out_of_range');
    expect(refusal('1e-400')).toBe('accepted');
  });

  it('bounds nesting depth instead of exhausting the stack', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(refusal(deep(256))).toBe('accepted');
    expect(refusal(deep(257))).toBe('nesting_too_deep');
    expect(refusal(`${'{"a":'.repeat(300)}1${'}'.repeat(300)}`)).toBe('nesting_too_deep');
    expect(refusal(deep(100_000))).toBe('nesting_too_deep');
    expect(refusal(deep(3))).toBe('accepted');
    expect(() => parseStrictJson(deep(5), { maxDepth: 4 })).toThrow(StrictJsonError);
  });
});
