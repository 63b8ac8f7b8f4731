import { ApiError } from '../errors/api-error';
import { coerceQueryValue, operationArgs } from './operation-args';
import { routeOf } from './route-table';

const ID = '5f0c8a2e-8d1b-4c3e-9a7f-2b6d4e8f1a30';
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return (e as ApiError).body as Record<string, any>;
  }
  throw new Error('expected a refusal');
};

describe('request → operation arguments', () => {
  it('coerces query text only where the catalog schema admits the type', () => {
    expect(coerceQueryValue({ type: ['integer', 'null'] }, '12')).toBe(12);
    expect(coerceQueryValue({ type: 'integer' }, '1.5')).toBe('1.5');
    expect(coerceQueryValue({ type: 'object' }, '{"version":3}')).toEqual({ version: 3 });
    expect(coerceQueryValue({ type: 'object' }, '{not json')).toBe('{not json');
    expect(coerceQueryValue({ type: 'integer' }, '99999999999999999999')).toBe('99999999999999999999');
    expect(coerceQueryValue({ type: 'boolean' }, 'true')).toBe(true);
    expect(coerceQueryValue({ type: 'string' }, 'true')).toBe('true');
    expect(coerceQueryValue({ enum: ['accepted', null] }, 'null')).toBe('null');
    expect(coerceQueryValue({ type: 'array' }, 'a,b')).toEqual(['a', 'b']);
    expect(coerceQueryValue(undefined, '3')).toBe('3');
  });

  it('takes the target from the path and refuses a different one in the body', () => {
    const route = routeOf('palimpsest_submit_edits');
    expect(operationArgs(route, { pathId: ID, query: {}, body: { intent: 'x' } })).toEqual({ intent: 'x', target_file_id: ID });
    expect(refusal(() => operationArgs(route, { pathId: ID, query: {}, body: { target_file_id: 'other' } })).code).toBe('target_file_id_mismatch');
    expect(refusal(() => operationArgs(route, { pathId: ID, query: {}, body: [1] })).code).toBe('invalid_params');
    expect(refusal(() => operationArgs(route, { pathId: ID, query: { a: '1' }, body: {} })).code).toBe('unexpected_query');
  });

  it('reads If-Match as the version guard and Idempotency-Key as the request key', () => {
    const route = routeOf('palimpsest_submit_edits');
    const args = (ifMatch?: string, idempotencyKey?: string, body: object = {}) => operationArgs(route, { pathId: ID, query: {}, body, ifMatch, idempotencyKey });
    expect(args('"3"', 'k1')).toMatchObject({ expected_target_version: 3, client_request_id: 'k1' });
    expect(args('*')).not.toHaveProperty('expected_target_version');
    expect(args('"3"', undefined, { expected_target_version: 3 })).toMatchObject({ expected_target_version: 3 });
    expect(refusal(() => args('"3"', undefined, { expected_target_version: 2 })).code).toBe('guard_conflict');
    for (const bad of ['3', 'W/"3"', '"3", "4"', '"-1"', '""']) expect(refusal(() => args(bad)).code).toBe('invalid_if_match');
    expect(refusal(() => args(undefined, 'k1', { client_request_id: 'k2' })).code).toBe('idempotency_key_conflict');
    const keys = (idempotencyKey: readonly string[]) => operationArgs(route, { pathId: ID, query: {}, body: {}, idempotencyKey });
    expect(keys(['a, b'])).toMatchObject({ client_request_id: 'a, b' }); // one header: its value is the key, comma and all
    expect(refusal(() => keys(['a', 'b'])).code).toBe('duplicate_idempotency_key');
    expect(refusal(() => keys(['a', 'a'])).code).toBe('duplicate_idempotency_key');
    expect(refusal(() => operationArgs(routeOf('palimpsest_save'), { pathId: ID, query: {}, body: {}, idempotencyKey: 'k' })).code).toBe('idempotency_key_not_supported');
    expect(refusal(() => operationArgs(routeOf('palimpsest_initialize_target'), { query: {}, body: {}, ifMatch: '"0"' })).code).toBe('if_match_not_supported');
  });

  it('ignores the write headers on reads, where client_request_id is a filter', () => {
    const args = operationArgs(routeOf('palimpsest_get_attempt_log'), { pathId: ID, query: { client_request_id: 'k' }, body: undefined, idempotencyKey: 'x', ifMatch: '"1"' });
    expect(args).toEqual({ client_request_id: 'k', target_file_id: ID });
  });
});
