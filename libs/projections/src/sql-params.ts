/**
 * Collects positional parameters while a query is assembled: `p.add(value)` returns `$n`. For reads;
 * writes that ride with an append are SqlFragments (@palimpsest/store/sql-fragment), never numbered by hand.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value === undefined ? null : value);
    return `$${this.values.length}`;
  }

  json(value: unknown): string {
    return `${this.add(value === null || value === undefined ? null : JSON.stringify(value))}::jsonb`;
  }
}
