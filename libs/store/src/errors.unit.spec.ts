import { storeFailureOf } from './errors';

describe('storeFailureOf', () => {
  it.each([
    [{ code: '55P03' }, { kind: 'transient', reason: 'lock_timeout' }],
    [{ code: '40001' }, { kind: 'transient', reason: 'serialization_failure' }],
    [{ code: '40P01' }, { kind: 'transient', reason: 'deadlock' }],
    [{ code: '57014', message: 'canceling statement due to statement timeout' }, { kind: 'transient', reason: 'statement_timeout' }],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, { kind: 'unreachable', reason: 'database_unavailable' }],
    [{ code: '25P03' }, { kind: 'unreachable', reason: 'database_unavailable' }],
    [{ code: 'ECONNREFUSED' }, { kind: 'unreachable', reason: 'database_unavailable' }],
    [{ code: 'ECONNRESET' }, { kind: 'unreachable', reason: 'database_unavailable' }],
    [new Error('Connection terminated unexpectedly'), { kind: 'unreachable', reason: 'database_unavailable' }],
    [new Error('Query read timeout'), { kind: 'unreachable', reason: 'database_unavailable' }],
    [new Error('timeout exceeded when trying to connect'), { kind: 'unreachable', reason: 'database_unavailable' }],
    [new Error('Client has encountered a connection error and is not queryable'), { kind: 'unreachable', reason: 'database_unavailable' }],
  ])('classifies %p', (error, expected) => {
    expect(storeFailureOf(error)).toEqual(expected);
  });

  it('leaves defects and constraint violations alone', () => {
    expect(storeFailureOf({ code: '23502', message: 'null value in column' })).toBeNull();
    expect(storeFailureOf(new TypeError('x is undefined'))).toBeNull();
    expect(storeFailureOf(undefined)).toBeNull();
  });
});
