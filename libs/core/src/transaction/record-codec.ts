/**
 * Deterministic JSON for stored records and fingerprints: object keys sorted by UTF-16 code unit
 * order, no whitespace, arrays in order, strings written exactly as JSON.stringify writes them
 * (literal non-ASCII, escaped lone surrogates).
 */
export function canonicalJson(value: unknown): string {
  const out = encode(value, '$');
  if (out === undefined) throw new TypeError('canonicalJson: the top-level value is not representable in JSON');
  return out;
}

function encode(value: unknown, path: string): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      // A non-finite number would silently become null; a stored record must never change meaning.
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${path} is not a finite number`);
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      throw new TypeError(`canonicalJson: ${path} is a bigint`);
    default:
      return Array.isArray(value) ? encodeArray(value, path) : encodeObject(value as Record<string, unknown>, path);
  }
}

function encodeArray(items: readonly unknown[], path: string): string {
  const parts = items.map((item, i) => encode(item, `${path}[${i}]`) ?? 'null');
  return `[${parts.join(',')}]`;
}

function encodeObject(obj: Record<string, unknown>, path: string): string {
  const parts: string[] = [];
  for (const key of Object.keys(obj).sort()) {
    const encoded = encode(obj[key], `${path}.${key}`);
    if (encoded !== undefined) parts.push(`${JSON.stringify(key)}:${encoded}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * Compact JSON with every non-ASCII UTF-16 unit written as \uXXXX: the form byte budgets are measured
 * in (Python's ensure_ascii=True with compact separators). Its length is its byte size.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
