/**
 * Collects positional parameters while a statement is assembled: `p.add(value)` returns `$n`.
 * `offset` numbers them after parameters another part of the same statement already uses.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(private readonly offset = 0) {}

  add(value: unknown): string {
    this.values.push(value === undefined ? null : value);
    return `$${this.offset + this.values.length}`;
  }

  json(value: unknown): string {
    return `${this.add(value === null || value === undefined ? null : JSON.stringify(value))}::jsonb`;
  }
}

/**
 * The SQL for an event's global position: a parameter when it is known (rebuild), or the row the
 * same statement's append CTE (`inserted`, or its name in a batch) returns, when projections ride
 * along with the append.
 */
export function positionSql(p: SqlParams, position: number | null, insertedCte = 'inserted'): string {
  return position === null ? `(SELECT global_position FROM ${insertedCte})` : `${p.add(position)}::bigint`;
}
