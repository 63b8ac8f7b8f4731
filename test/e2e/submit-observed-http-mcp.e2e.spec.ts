import { useGateway } from '../support/http-server';
import { useMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const SOURCE = 'def alpha(x):\n    return x + 1\n\n\ndef beta():\n    return 2\n';
const span = (needle: string, replace: string) => ({ op: 'span', start: SOURCE.indexOf(needle), end: SOURCE.indexOf(needle) + needle.length, expected_text: needle, replace });

describe(`POST /v1/targets/{id}/observed-operations over real HTTP on ${backend}`, () => {
  const gw = useGateway();

  it('accepts an in-scope edit, refuses an out-of-scope one and a consumed observation, audited', async () => {
    const created = await gw.http.post('/v1/targets', { filename: 'mod.py', content: SOURCE });
    const id = created.body.target_file_id as string;
    const observe = () => gw.http.post(`/v1/targets/${id}/scopes`, { symbol_name: 'alpha', kind: 'function' });
    const submit = (body: Record<string, unknown>) => gw.http.post(`/v1/targets/${id}/observed-operations`, body);
    const first = (await observe()).body;
    const guards = { expected_target_version: first.target_version, expected_current_hash: first.target_current_hash };
    const outside = await submit({ observation_id: first.observation_id, intent: 'i', ...guards, operations: [span('return 2', 'return 3')] });
    expect(outside).toMatchObject({ status: 422, body: { status: 'rejected', failure_reason: 'span_out_of_bounds', diagnostic: { code: 'OPERATION_OUTSIDE_OBSERVED_SCOPE' }, error: { code: 'proposal_rejected' } } });
    const ok = await submit({ observation_id: first.observation_id, intent: 'bump', ...guards, operations: [span('x + 1', 'x + 2')] });
    expect(ok).toMatchObject({ status: 200, body: { status: 'accepted', version: 1 } });
    const again = await submit({ observation_id: first.observation_id, intent: 'again', expected_target_version: 1, expected_current_hash: ok.body.after_hash, operations: [{ op: 'match', match: 'x + 2', replace: 'x + 3' }] });
    expect(again).toMatchObject({ status: 422, body: { status: 'rejected', diagnostic: { code: 'OBSERVATION_ALREADY_CONSUMED' } } });
    expect(await submit({ intent: 'i', ...guards, operations: [span('x + 1', 'x')] })).toMatchObject({ status: 422, body: { status: 'rejected', diagnostic: { code: 'OBSERVATION_REQUIRED' } } });
    // A stale observation is a failed precondition, as a stale guard is.
    const moved = (await gw.http.post(`/v1/targets/${id}/scopes`, { symbol_name: 'beta' })).body;
    await gw.http.post(`/v1/targets/${id}/operations`, { intent: 'elsewhere', expected_target_version: 1, operations: [{ op: 'match', match: 'x + 2', replace: 'x + 5' }] });
    const stale = await submit({ observation_id: moved.observation_id, intent: 'i', expected_target_version: 2, expected_current_hash: '0'.repeat(64), operations: [{ op: 'match', match: 'return 2', replace: 'return 3' }] });
    expect(stale).toMatchObject({ status: 409, body: { diagnostic: { code: 'STALE_OBSERVATION_VERSION' }, error: { code: 'precondition_failed' } } });
    const replay = await gw.http.post(`/v1/targets/${id}/replay`, {});
    expect(replay.body).toMatchObject({ status: 'success', accepted_transactions_replayed: 2 });
  });
});

describe(`palimpsest_submit_observed_operations over real MCP stdio on ${backend}`, () => {
  const session = useMcp();

  it('observe → submit in scope → the observation is consumed; a stale one is refused', async () => {
    const id = (await session.mcp.call('palimpsest_initialize_target', { filename: 'mod.py', content: SOURCE })).result.target_file_id;
    const obs = (await session.mcp.call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'alpha' })).result;
    const beta = (await session.mcp.call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'beta' })).result;
    const guards = { expected_target_version: 0, expected_current_hash: obs.target_current_hash };
    const ok = await session.mcp.call('palimpsest_submit_observed_operations', { target_file_id: id, observation_id: obs.observation_id, intent: 'bump', ...guards, operations: [span('x + 1', 'x + 2')] });
    expect(ok).toMatchObject({ isError: false, result: { status: 'accepted', version: 1 } });
    const stale = await session.mcp.call('palimpsest_submit_observed_operations', { target_file_id: id, observation_id: beta.observation_id, intent: 'i', expected_target_version: 1, expected_current_hash: ok.result.after_hash, operations: [{ op: 'match', match: 'return 2', replace: 'return 3' }] });
    expect(stale.result).toMatchObject({ status: 'rejected', diagnostic: { code: 'STALE_OBSERVATION_VERSION' } });
  });
});
