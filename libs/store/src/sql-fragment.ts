/**
 * SQL as values: a fragment is statement text with its parameters in place, so fragments built apart
 * (an append, the projections that ride with it, a guard) join into one statement and are numbered
 * $1…$n only when it is sent. No parameter offset ever crosses a function or a library.
 *
 *   const f = sql`UPDATE t SET v = ${value} WHERE id = ${id}`;     // two parameters
 *   sql`WITH a AS (${f}) SELECT ${raw('1')}`                        // f's parameters come along
 */

export class SqlFragment {
  /**
   * Use sql`…`, raw() or joinSql(). `texts` has one more entry than `values`: text, value, text, …, text;
   * a value that is a fragment is inlined (kept by reference, flattened once at render).
   */
  constructor(
    readonly texts: readonly string[],
    readonly values: readonly unknown[],
  ) {}

  /** The statement text ($1…$n) and its values, in order. */
  render(): { text: string; values: unknown[] } {
    const values: unknown[] = [];
    // Built by concatenation; V8 flattens it once, when the prepared-statement cache first hashes it.
    return { text: renderInto(this, values), values };
  }

  /** The statement text with every parameter written `?`: equal for fragments that render equal texts. */
  shape(): string {
    let text = this.texts[0]!;
    for (let i = 0; i < this.values.length; i++) {
      const value = this.values[i];
      text += value instanceof SqlFragment ? value.shape() : '?';
      text += this.texts[i + 1]!;
    }
    return text;
  }
}

function renderInto(fragment: SqlFragment, values: unknown[]): string {
  const { texts, values: own } = fragment;
  let text = texts[0]!;
  for (let i = 0; i < own.length; i++) {
    const value = own[i];
    if (value instanceof SqlFragment) text += renderInto(value, values);
    else text += '$' + values.push(value);
    text += texts[i + 1]!;
  }
  return text;
}

/** Text with `${…}` values as parameters (undefined sent as NULL); a nested fragment is inlined with its own. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  for (let i = 0; i < values.length; i++) if (values[i] === undefined) values[i] = null;
  return new SqlFragment(strings, values);
}

/** Trusted text (an identifier, a keyword): never a value from outside. */
export const raw = (text: string): SqlFragment => new SqlFragment([text], []);

export const EMPTY_SQL = raw('');

export function joinSql(fragments: readonly SqlFragment[], separator = ', '): SqlFragment {
  if (fragments.length === 0) return EMPTY_SQL;
  const texts = [''];
  for (let i = 1; i < fragments.length; i++) texts.push(separator);
  texts.push('');
  return new SqlFragment(texts, fragments);
}

/** A JSON value as a jsonb parameter (null and undefined as SQL NULL). */
export const jsonb = (value: unknown): SqlFragment => sql`${value === null || value === undefined ? null : JSON.stringify(value)}::jsonb`;
