/**
 * SQL as values: a fragment is statement text with its parameters in place, so fragments built apart
 * (an append, the projections that ride with it, a guard) join into one statement and are numbered
 * $1…$n only when it is sent. No parameter offset ever crosses a function or a library.
 *
 *   const f = sql`UPDATE t SET v = ${value} WHERE id = ${id}`;     // two parameters
 *   sql`WITH a AS (${f}) SELECT ${raw('1')}`                        // f's parameters come along
 */

type Part = string | { readonly value: unknown };

export class SqlFragment {
  /** Use sql`…`, raw() or joinSql(). */
  constructor(readonly parts: readonly Part[]) {}

  /** The statement text ($1…$n) and its values, in order. */
  render(): { text: string; values: unknown[] } {
    const values: unknown[] = [];
    let text = '';
    for (const part of this.parts) {
      if (typeof part === 'string') text += part;
      else {
        values.push(part.value);
        text += `$${values.length}`;
      }
    }
    return { text, values };
  }
}

/** Text with `${…}` values as parameters (undefined sent as NULL); a nested fragment is inlined with its own. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  const parts: Part[] = [];
  strings.forEach((text, i) => {
    if (text) parts.push(text);
    if (i >= values.length) return;
    const value = values[i];
    if (value instanceof SqlFragment) parts.push(...value.parts);
    else parts.push({ value: value === undefined ? null : value });
  });
  return new SqlFragment(parts);
}

/** Trusted text (an identifier, a keyword): never a value from outside. */
export const raw = (text: string): SqlFragment => new SqlFragment([text]);

export const EMPTY_SQL = raw('');

export function joinSql(fragments: readonly SqlFragment[], separator = ', '): SqlFragment {
  const parts: Part[] = [];
  fragments.forEach((f, i) => {
    if (i > 0 && separator) parts.push(separator);
    parts.push(...f.parts);
  });
  return new SqlFragment(parts);
}

/** A JSON value as a jsonb parameter (null and undefined as SQL NULL). */
export const jsonb = (value: unknown): SqlFragment => sql`${value === null || value === undefined ? null : JSON.stringify(value)}::jsonb`;
