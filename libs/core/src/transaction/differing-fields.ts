import { canonicalJson } from './record-codec';
import { isPlainObject } from './field-checks';

/**
 * Advisory list of record paths where a submitted typed record differs from the stored one
 * (request-key conflicts). Paths come in structural order: keys by code unit order, array
 * elements by index; an array whose length changed is named itself, then compared index by
 * index up to the shorter length.
 */
export function differingFields(
  storedRecord: Record<string, unknown>,
  submittedRecord: Record<string, unknown>,
  max = 10,
): { fields: string[]; truncated: boolean } {
  const found: string[] = [];
  const limit = Math.max(0, max);
  compareObjects(storedRecord, submittedRecord, '', found, limit + 1);
  return { fields: found.slice(0, limit), truncated: found.length > limit };
}

function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>, base: string, found: string[], cap: number): void {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const key of keys) {
    if (found.length >= cap) return;
    compareValues(a[key], b[key], base ? `${base}.${key}` : key, found, cap);
  }
}

function compareValues(a: unknown, b: unknown, path: string, found: string[], cap: number): void {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) found.push(path);
    const shorter = Math.min(a.length, b.length);
    for (let i = 0; i < shorter && found.length < cap; i++) compareValues(a[i], b[i], `${path}[${i}]`, found, cap);
    return;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    compareObjects(a, b, path, found, cap);
    return;
  }
  if (!sameValue(a, b)) found.push(path);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}
