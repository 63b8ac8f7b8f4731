/**
 * A strict RFC 8259 JSON parser. It accepts exactly the JSON grammar (no comments, no trailing
 * commas, no leading zeros, no BOM) and additionally refuses:
 *   - a repeated member name in any object, at any depth (names compared after unescaping);
 *   - nesting deeper than `maxDepth` containers (the parser recurses; the limit keeps it bounded);
 *   - numbers whose value is not a finite double (e.g. 1e400), unless a reviver takes the token.
 * Numbers are handed to an optional reviver as their exact lexical token, so a caller can keep
 * integers wider than 2^53 (request ids) without a detour through a double.
 * Escaped lone surrogates ("\ud800") are accepted, as the grammar allows and JSON.parse does.
 */

export type StrictJsonErrorCode = 'invalid_json' | 'duplicate_key' | 'nesting_too_deep' | 'number_out_of_range';

export class StrictJsonError extends Error {
  constructor(
    readonly code: StrictJsonErrorCode,
    /** Offset in UTF-16 code units of the decoded text. */
    readonly offset: number,
    detail: string,
  ) {
    super(`${detail} at offset ${offset}`);
    this.name = 'StrictJsonError';
  }
}

/**
 * Turns a number token into the stored value. `depth` is the enclosing container's depth (1 = the
 * top-level object or array, 0 = a bare number document), `key` the member name or array index,
 * `offset` where the token starts.
 */
export type NumberReviver = (token: string, depth: number, key: string | number | null, offset: number) => unknown;

export interface StrictJsonOptions {
  maxDepth?: number;
  reviveNumber?: NumberReviver;
}

export const DEFAULT_MAX_DEPTH = 256;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** A finite double from a number token, or a refusal. */
export function numberFromToken(token: string, offset = 0): number {
  const value = Number(token);
  if (!Number.isFinite(value)) throw new StrictJsonError('number_out_of_range', offset, `Number ${token} is out of range`);
  return value;
}

export function parseStrictJson(text: string, options: StrictJsonOptions = {}): unknown {
  return new Parser(text, options.maxDepth ?? DEFAULT_MAX_DEPTH, options.reviveNumber).parseDocument();
}

class Parser {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly reviver: NumberReviver | undefined,
  ) {}

  parseDocument(): unknown {
    this.skipWhitespace();
    const value = this.parseValue(0, null);
    this.skipWhitespace();
    if (this.pos !== this.text.length) this.fail('invalid_json', 'Unexpected data after the JSON value');
    return value;
  }

  private fail(code: StrictJsonErrorCode, detail: string, at = this.pos): never {
    throw new StrictJsonError(code, at, detail);
  }

  private skipWhitespace(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) p++;
      else break;
    }
    this.pos = p;
  }

  private describeHere(): string {
    if (this.pos >= this.text.length) return 'Unexpected end of JSON';
    return `Unexpected character ${JSON.stringify(this.text[this.pos])}`;
  }

  private parseValue(depth: number, key: string | number | null): unknown {
    const c = this.text[this.pos];
    switch (c) {
      case '{':
        return this.parseObject(depth + 1);
      case '[':
        return this.parseArray(depth + 1);
      case '"':
        return this.parseString();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      default:
        if (c === '-' || (c >= '0' && c <= '9')) return this.parseNumber(depth, key);
        return this.fail('invalid_json', this.describeHere());
    }
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('invalid_json', this.describeHere());
    this.pos += word.length;
    return value;
  }

  private parseNumber(depth: number, key: string | number | null): unknown {
    const start = this.pos;
    NUMBER.lastIndex = start;
    const m = NUMBER.exec(this.text);
    if (!m) return this.fail('invalid_json', 'Malformed number');
    this.pos = start + m[0].length;
    return this.reviver ? this.reviver(m[0], depth, key, start) : numberFromToken(m[0], start);
  }

  private parseString(): string {
    const t = this.text;
    let p = this.pos + 1;
    let out = '';
    for (;;) {
      PLAIN_RUN.lastIndex = p;
      const run = PLAIN_RUN.exec(t);
      if (run && run[0].length > 0) {
        out += run[0];
        p += run[0].length;
      }
      if (p >= t.length) this.fail('invalid_json', 'Unterminated string', p);
      const c = t[p];
      if (c === '"') {
        this.pos = p + 1;
        return out;
      }
      if (c !== '\\') this.fail('invalid_json', 'Unescaped control character in string', p);
      const e = t[p + 1];
      if (e === 'u') {
        const hex = t.slice(p + 2, p + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid_json', 'Malformed \\u escape', p);
        out += String.fromCharCode(parseInt(hex, 16));
        p += 6;
      } else if (e !== undefined && Object.prototype.hasOwnProperty.call(ESCAPES, e)) {
        out += ESCAPES[e];
        p += 2;
      } else {
        this.fail('invalid_json', 'Invalid escape in string', p);
      }
    }
  }

  private enter(depth: number): void {
    if (depth > this.maxDepth) this.fail('nesting_too_deep', `Nesting deeper than ${this.maxDepth} levels`);
    this.pos++;
    this.skipWhitespace();
  }

  private parseArray(depth: number): unknown[] {
    this.enter(depth);
    const out: unknown[] = [];
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.parseValue(depth, out.length));
      this.skipWhitespace();
      const c = this.text[this.pos];
      if (c === ']') {
        this.pos++;
        return out;
      }
      if (c !== ',') this.fail('invalid_json', `${this.describeHere()} in array`);
      this.pos++;
      this.skipWhitespace();
    }
  }

  private parseObject(depth: number): Record<string, unknown> {
    this.enter(depth);
    const out: Record<string, unknown> = {};
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    const seen = new Set<string>();
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail('invalid_json', `${this.describeHere()}: expected a member name`);
      const keyAt = this.pos;
      const key = this.parseString();
      if (seen.has(key)) this.fail('duplicate_key', `Duplicate member name ${JSON.stringify(key)}`, keyAt);
      seen.add(key);
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') this.fail('invalid_json', `${this.describeHere()}: expected ':'`);
      this.pos++;
      this.skipWhitespace();
      const value = this.parseValue(depth, key);
      // An own "__proto__" member, exactly as JSON.parse makes it (plain assignment would set the prototype).
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      this.skipWhitespace();
      const c = this.text[this.pos];
      if (c === '}') {
        this.pos++;
        return out;
      }
      if (c !== ',') this.fail('invalid_json', `${this.describeHere()} in object`);
      this.pos++;
      this.skipWhitespace();
    }
  }
}
