import { sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

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

/**
 * An event's global position: a parameter when it is known (rebuild), or the row the same statement's
 * append CTE (`inserted`, wherever the store placed it) returns, when projections ride with the append.
 */
export function positionSql(position: number | null, inserted: SqlFragment | null): SqlFragment {
  if (position !== null) return sql`${position}::bigint`;
  if (!inserted) throw new Error('a projection riding with its append reads the position the append inserts');
  return sql`(SELECT global_position FROM ${inserted})`;
}
