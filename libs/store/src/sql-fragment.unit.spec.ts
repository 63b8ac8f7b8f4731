import { joinSql, jsonb, raw, sql } from './sql-fragment';

describe('sql fragments', () => {
  it('numbers parameters only when the joined statement is rendered', () => {
    const a = sql`UPDATE a SET v = ${1} WHERE id = ${'x'}`;
    const b = sql`UPDATE b SET w = ${2}`;
    const statement = sql`WITH ${joinSql([sql`a AS (${a})`, sql`b AS (${b})`])} SELECT ${raw('1')}`;
    expect(statement.render()).toEqual({ text: 'WITH a AS (UPDATE a SET v = $1 WHERE id = $2), b AS (UPDATE b SET w = $3) SELECT 1', values: [1, 'x', 2] });
  });

  it('sends undefined as NULL and JSON as a jsonb text parameter', () => {
    expect(sql`SELECT ${undefined}, ${jsonb({ a: 1 })}, ${jsonb(null)}`.render()).toEqual({ text: 'SELECT $1, $2::jsonb, $3::jsonb', values: [null, '{"a":1}', null] });
  });

  it('renders a fragment used twice with parameters of its own each time', () => {
    const id = sql`${'t'}::uuid`;
    expect(sql`${id} = ${id}`.render()).toEqual({ text: '$1::uuid = $2::uuid', values: ['t', 't'] });
  });

  it('gives fragments that render equal texts one shape, whatever their values', () => {
    const of = (v: unknown, w: unknown) => sql`WITH ${joinSql([sql`a AS (${v})`, sql`b AS (${w})`])} SELECT ${raw('1')}`;
    expect(of(1, 'x').shape()).toBe('WITH a AS (?), b AS (?) SELECT 1');
    expect(of(2, null).shape()).toBe(of(1, 'x').shape());
    expect(sql`SELECT ${raw('2')}`.shape()).not.toBe(sql`SELECT ${raw('1')}`.shape());
    expect(joinSql([]).render()).toEqual({ text: '', values: [] });
  });
});
