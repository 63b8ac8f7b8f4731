/**
 * Deterministic JSON: the one canonical writer for stored records, fingerprints and event digests
 * (RFC 8785's JSON Canonicalization Scheme on the values JSON.stringify can write). Object members
 * sorted by their names' UTF-16 code units, no whitespace, arrays in order, strings and numbers
 * written exactly as JSON.stringify writes them (literal non-ASCII, escaped lone surrogates), members
 * whose value is undefined, a function or a symbol left out (null inside an array), `toJSON` honoured.
 * A value JSON cannot hold (a non-finite number, a bigint, an undefined top level) is a TypeError
 * naming its path: a stored record must never change meaning on the way out.
 */
export function canonicalJson(value: unknown): string {
  try {
    const out = encode(value);
    if (out !== undefined) return out;
  } catch (error) {
    if (error !== UNREPRESENTABLE) throw error;
  }
  throw new TypeError(`canonicalJson: ${unrepresentablePath(value, '$')} is not representable in JSON`);
}

const UNREPRESENTABLE = new Error('unrepresentable');

function encode(input: unknown): string | undefined {
  const value = jsonValueOf(input);
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      if (value - value !== 0) throw UNREPRESENTABLE;
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? encodeArray(value) : encodeObject(value as Record<string, unknown>);
    case 'bigint':
      throw UNREPRESENTABLE;
    default:
      return undefined;
  }
}

function encodeArray(items: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += encode(items[i]) ?? 'null';
  }
  return out + ']';
}

function encodeObject(object: Record<string, unknown>): string {
  const keys = Object.keys(object);
  if (!inOrder(keys)) keys.sort();
  let out = '{';
  for (const key of keys) {
    const encoded = encode(object[key]);
    if (encoded === undefined) continue;
    out += out.length === 1 ? quotedKey(key) : ',' + quotedKey(key);
    out += ':' + encoded;
  }
  return out + '}';
}

/** A string needs JSON.stringify only when it holds a quote, a backslash, a control or a surrogate unit. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
const quoted = (text: string): string => (ESCAPED.test(text) ? JSON.stringify(text) : '"' + text + '"');

/** Member names repeat from event to event: each is quoted once (up to a bound, then every time). */
const quotedKeys = new Map<string, string>();
function quotedKey(key: string): string {
  let q = quotedKeys.get(key);
  if (q === undefined) {
    q = quoted(key);
    if (quotedKeys.size < 4096) quotedKeys.set(key, q);
  }
  return q;
}

/** Whether the keys already sort as Array.prototype.sort (UTF-16 code units) would sort them. */
function inOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
  return true;
}

function jsonValueOf(value: unknown): unknown {
  if (value !== null && typeof value === 'object') {
    const toJSON: unknown = Reflect.get(value, 'toJSON');
    if (typeof toJSON === 'function') return Reflect.apply(toJSON, value, []);
  }
  return value;
}

/** Where the first value JSON cannot hold sits (walked again only when encoding failed). */
function unrepresentablePath(input: unknown, path: string): string {
  const value = jsonValueOf(input);
  if (value === null || typeof value !== 'object') return path;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [`${path}[${i}]`, item])
    : Object.keys(value).map((key) => [`${path}.${key}`, Reflect.get(value, key)]);
  for (const [childPath, child] of entries) {
    if (!isRepresentable(child)) return unrepresentablePath(child, childPath);
  }
  return path;
}

function isRepresentable(value: unknown): boolean {
  try {
    encode(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Compact JSON with every non-ASCII UTF-16 unit written as \uXXXX: the form byte budgets are measured
 * in (Python's ensure_ascii=True with compact separators). Its length is its byte size.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
