import { canonicalJson } from '../transaction/record-codec';

/**
 * canonicalJson of a payload as a bundle's JSON.parse gives it, fast when it can be: a value whose every
 * object already lists its members in canonical order (as `palimpsest export` writes them) is written by
 * the native JSON.stringify, which then writes exactly what canonicalJson does (the same string and number
 * forms; nothing to sort). Anything else (members out of order, a prototype other than Object's, a number
 * JSON cannot hold) takes canonicalJson itself. Verification encodes a million payloads: this is most of it.
 */
export function payloadJson(value: unknown): string {
  return inCanonicalOrder(value) ? JSON.stringify(value) : canonicalJson(value);
}

function inCanonicalOrder(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!inCanonicalOrder(value[i])) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      return membersInOrder(value as Record<string, unknown>);
    default:
      return false;
  }
}

function membersInOrder(object: Record<string, unknown>): boolean {
  let previous: string | null = null;
  for (const key in object) {
    if (previous !== null && previous >= key) return false;
    if (!inCanonicalOrder(object[key])) return false;
    previous = key;
  }
  return true;
}

/** A payload with every object's members in canonical order (integer-like names aside: JSON keeps them first), for a bundle to carry. */
export function inCanonicalMemberOrder<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(canonicalJson(value)) as T);
}
