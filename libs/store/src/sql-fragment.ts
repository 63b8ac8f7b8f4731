/**
 * SQL as values: a fragment is statement text with its parameters in place, so fragments built apart
 * (an append, the projections that ride with it, a guard) join into one statement and are numbered
 * $1…$n only when it is sent. No parameter offset ever crosses a function or a library.
 *
 *   const f = sql`UPDATE t SET v = ${value} WHERE id = ${id}`;     // two parameters
 *   sql`WITH a AS (${f}) SELECT ${raw('1')}`                        // f's parameters come along
 */

/** A piece of statement text, a parameter's value, or a nested fragment (kept by reference, flattened once at render). */
type Part = string | { readonly value: unknown } | SqlFragment;

export class SqlFragment {
  /** Use sql`…`, raw() or joinSql(). */
  constructor(readonly parts: readonly Part[]) {}

  /** The statement text ($1…$n) and its values, in order. */
  render(): { text: string; values: unknown[] } {
    const texts: string[] = [];
    const values: unknown[] = [];
    collect(this, texts, values);
    // Joined once into a flat string: the prepared-statement cache hashes it, and a cons string would be flattened first.
    return { text: texts.join(''), values };
  }
}

function collect(fragment: SqlFragment, texts: string[], values: unknown[]): void {
  for (const part of fragment.parts) {
    if (typeof part === 'string') texts.push(part);
    else if (part instanceof SqlFragment) collect(part, texts, values);
    else {
      values.push(part.value);
      texts.push(`$${values.length}`);
    }
  }
}

/** Text with `${…}` values as parameters (undefined sent as NULL); a nested fragment is inlined with its own. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  const parts: Part[] = [];
  for (let i = 0; i < strings.length; i++) {
    const text = strings[i]!;
    if (text) parts.push(text);
    if (i >= values.length) continue;
    const value = values[i];
    parts.push(value instanceof SqlFragment ? value : { value: value === undefined ? null : value });
  }
  return new SqlFragment(parts);
}

/** Trusted text (an identifier, a keyword): never a value from outside. */
export const raw = (text: string): SqlFragment => new SqlFragment([text]);

export const EMPTY_SQL = raw('');

export function joinSql(fragments: readonly SqlFragment[], separator = ', '): SqlFragment {
  const parts: Part[] = [];
  fragments.forEach((f, i) => {
    if (i > 0 && separator) parts.push(separator);
    parts.push(f);
  });
  return new SqlFragment(parts);
}

/** A JSON value as a jsonb parameter (null and undefined as SQL NULL). */
export const jsonb = (value: unknown): SqlFragment => sql`${value === null || value === undefined ? null : JSON.stringify(value)}::jsonb`;
