import { hasLoneSurrogate } from './code-points';

/** Why a string cannot be PostgreSQL text, or null when it can. Noncharacters (U+FFFE, U+FDD0…) are valid text. */
export type TextDefect = 'nul' | 'lone_surrogate';

export function textDefect(value: string): TextDefect | null {
  if (value.includes('\u0000')) return 'nul';
  return hasLoneSurrogate(value) ? 'lone_surrogate' : null;
}

export const TEXT_DEFECT_WORDS: Record<TextDefect, string> = {
  nul: 'contains U+0000 (NUL)',
  lone_surrogate: 'contains an unpaired UTF-16 surrogate, which has no UTF-8 form',
};

export interface FoundTextDefect {
  /** JSON path of the string, `$` for the value itself (`$.<key>` for an object key). */
  path: string;
  defect: TextDefect;
}

/** The first string (value or object key, depth first) that PostgreSQL text cannot hold, or null. */
export function findTextDefect(value: unknown, path = '$'): FoundTextDefect | null {
  if (typeof value === 'string') {
    const defect = textDefect(value);
    return defect ? { path, defect } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findTextDefect(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const found = findTextDefect(key, `${path}.<key>`) ?? findTextDefect(child, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

/** PostgreSQL text holds neither NUL nor unpaired surrogates: the JSON path of the first string that cannot be stored, or null. */
export function findUnstorableText(value: unknown, path = '$'): string | null {
  return findTextDefect(value, path)?.path ?? null;
}
