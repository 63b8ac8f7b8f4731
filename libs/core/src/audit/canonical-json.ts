/**
 * The canonical JSON of a value (RFC 8785, JSON Canonicalization Scheme, on the values JSON.stringify
 * can write): object members sorted by their names' UTF-16 code units, no whitespace, strings and
 * numbers written as ECMAScript's JSON.stringify writes them, members whose value is undefined (or a
 * function) left out as JSON.stringify leaves them out, `toJSON` honoured. Two values equal as JSON
 * have one canonical text: what an event's hash covers (docs/audit-log.md).
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

function write(value: unknown, out: string[]): void {
  const v = toJsonValue(value);
  if (v === null || v === undefined) {
    out.push('null');
    return;
  }
  switch (typeof v) {
    case 'string':
      out.push(JSON.stringify(v));
      return;
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(v)) throw new RangeError(`canonical JSON has no ${v}`);
      out.push(JSON.stringify(v));
      return;
    case 'bigint':
      throw new TypeError('canonical JSON has no bigint');
    case 'object':
      if (Array.isArray(v)) writeArray(v, out);
      else writeObject(v as Record<string, unknown>, out);
      return;
    default:
      out.push('null');
  }
}

function writeArray(items: readonly unknown[], out: string[]): void {
  out.push('[');
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.push(',');
    const item = toJsonValue(items[i]);
    write(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item, out);
  }
  out.push(']');
}

function writeObject(object: Record<string, unknown>, out: string[]): void {
  out.push('{');
  let first = true;
  // Array.prototype.sort compares UTF-16 code units, as RFC 8785 sorts member names.
  for (const key of Object.keys(object).sort()) {
    const member = toJsonValue(object[key]);
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(member, out);
  }
  out.push('}');
}

function toJsonValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}
