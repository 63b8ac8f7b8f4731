import { hasLoneSurrogate } from './code-points';

/**
 * PostgreSQL text holds neither NUL nor unpaired surrogates (they are not valid UTF-8).
 * Returns the JSON path of the first string that cannot be stored, or null.
 */
export function findUnstorableText(value: unknown, path = '$'): string | null {
  if (typeof value === 'string') {
    return value.includes('\u0000') || hasLoneSurrogate(value) ? path : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const keyProblem = findUnstorableText(key, `${path}.<key>`);
      if (keyProblem) return keyProblem;
      const found = findUnstorableText(child, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}
