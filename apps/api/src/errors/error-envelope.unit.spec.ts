import { isOperationName } from '@palimpsest/protocol/catalog/catalog';
import { routeOf } from '../routes/route-table';
import { operationArgs } from '../routes/operation-args';
import { httpNextAction } from './error-envelope';

const ID = '5f0c8a2e-8d1b-4c3e-9a7f-2b6d4e8f1a30';

/** What the gateway parses back out of a routed next action, as a client following it would send it. */
function sentArgs(action: ReturnType<typeof httpNextAction>) {
  const url = new URL(action.path, 'http://gateway');
  const pathId = url.pathname.split('/')[3];
  const query = Object.fromEntries(url.searchParams);
  if (!isOperationName(action.operation)) throw new Error(`${action.operation} is not a catalog operation`);
  return operationArgs(routeOf(action.operation), { pathId, query, body: action.body });
}

describe('HTTP next actions', () => {
  it('a POST carries its arguments as the body, the id in the path, and parses back to the same params', () => {
    const params = { target_file_id: ID, intent: 'x', expected_target_version: 3, edits: [{ match: 'a', replace: 'b', occurrence_index: 2 }] };
    const action = httpNextAction({ operation: 'palimpsest_submit_edits', reason: 'r', params });
    expect(action).toMatchObject({ method: 'POST', path: `/v1/targets/${ID}/edits`, params });
    expect(action.body).toEqual({ intent: 'x', expected_target_version: 3, edits: params.edits });
    expect(sentArgs(action)).toEqual(params);
  });

  it('a GET carries its arguments as the query string, text with spaces, emoji and CJK included', () => {
    const params = { target_file_id: ID, text: 'déjà vu 🦊 𠀀&=?', start_occurrence: 6 };
    const action = httpNextAction({ operation: 'palimpsest_find_occurrences', reason: 'r', params });
    expect(action.method).toBe('GET');
    expect(action.path.startsWith(`/v1/targets/${ID}/occurrences?`)).toBe(true);
    expect(action.body).toBeUndefined();
    expect(sentArgs(action)).toEqual(params);
  });

  it('a null argument is left out of the query (the route would read "null" as text)', () => {
    const action = httpNextAction({ operation: 'palimpsest_get_attempt_log', reason: 'r', params: { target_file_id: ID, client_request_id: null } });
    expect(action.path).toBe(`/v1/targets/${ID}/attempts`);
  });
});
