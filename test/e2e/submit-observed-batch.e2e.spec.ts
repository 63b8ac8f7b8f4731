import { isolatedStore } from '../support/cli-process';
import { useGateway } from '../support/http-server';
import { connectMcp, useMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const SOURCE = 'def alpha(x):\n    return x + 1\n\n\ndef beta():\n    return 2\n\n\ndef gamma():\n    return 3\n';
const SELECTIONS = [{ symbol_name: 'alpha' }, { symbol_name: 'beta' }, { symbol_name: 'gamma' }];
/** A scope-local span over `needle` in a receipt's text (BMP: code points are UTF-16 units). */
const local = (scope: { text: string }, needle: string, replace: string) => {
  const start = scope.text.indexOf(needle);
  return { op: 'span', start, end: start + needle.length, expected_text: needle, replace };
};
const groupsOf = (bundle: any) => [
  { observation_id: bundle.scopes[2].observation_id, operations: [local(bundle.scopes[2], '3', '33')] },
  { observation_id: bundle.scopes[0].observation_id, operations: [{ op: 'match', match: 'x + 1', replace: 'x + 2' }] },
];

describe(`POST /v1/targets/{id}/observed-operations (batch form) over real HTTP on ${backend}`, () => {
  const gw = useGateway();

  it('accepts a batch as one version step, refuses a reused receipt and a stale bundle, audited; replay succeeds', async () => {
    const id = (await gw.http.post('/v1/targets', { filename: 'mod.py', content: SOURCE })).body.target_file_id as string;
    const observe = async () => (await gw.http.post(`/v1/targets/${id}/scopes`, { selections: SELECTIONS })).body;
    const submit = (body: Record<string, unknown>) => gw.http.post(`/v1/targets/${id}/observed-operations`, body);
    const bundle = await observe();
    expect(bundle).toMatchObject({ status: 'observed_batch', scope_count: 3 });
    const guards = { expected_target_version: 0, expected_current_hash: bundle.target_current_hash };
    const args = { observation_bundle_id: bundle.bundle_id, intent: 'two scopes', groups: groupsOf(bundle), ...guards, client_request_id: 'http-batch-1' };
    const ok = await submit(args);
    expect(ok).toMatchObject({ status: 200, body: { status: 'accepted', before_version: 0, version: 1, group_count: 2, change_count: 2, groups: [{ group_index: 0, ordinal: 3 }, { group_index: 1, ordinal: 1 }] } });
    expect((await gw.http.get(`/v1/targets/${id}/text`)).body.text).toBe(SOURCE.replace('x + 1', 'x + 2').replace('return 3', 'return 33'));
    expect(await submit(args)).toMatchObject({ status: 200, body: { status: 'accepted', deduplicated: true, attempt_id: ok.body.attempt_id } });
    const moved = { expected_target_version: 1, expected_current_hash: ok.body.after_hash };
    const reused = await submit({ ...args, ...moved, client_request_id: 'http-batch-2', groups: [{ observation_id: bundle.scopes[1].observation_id, operations: [{ op: 'match', match: '2', replace: '4' }] }, groupsOf(bundle)[1]] });
    expect(reused).toMatchObject({ status: 422, body: { status: 'rejected', diagnostic: { code: 'OBSERVATION_ALREADY_CONSUMED', group_index: 1 }, error: { code: 'proposal_rejected' } } });
    const fresh = await observe();
    await gw.http.post(`/v1/targets/${id}/operations`, { intent: 'elsewhere', expected_target_version: 1, operations: [{ op: 'match', match: 'return 2', replace: 'return 5' }] });
    const stale = await submit({ ...args, observation_bundle_id: fresh.bundle_id, groups: groupsOf(fresh), expected_target_version: 2, expected_current_hash: '0'.repeat(64), client_request_id: 'http-batch-3' });
    expect(stale).toMatchObject({ status: 409, body: { diagnostic: { code: 'STALE_OBSERVATION_VERSION', group_index: 0 }, error: { code: 'precondition_failed' } } });
    const { observation_bundle_id: _omit, ...single } = args;
    expect(await submit({ ...single, client_request_id: 'http-batch-4' })).toMatchObject({ status: 422, body: { diagnostic: { code: 'OBSERVATION_REQUIRED', argument: 'observation_bundle_id' } } });
    expect((await gw.http.post(`/v1/targets/${id}/replay`, {})).body).toMatchObject({ status: 'success', accepted_transactions_replayed: 2 });
  });
});

describe(`palimpsest_submit_observed_operations (batch form) over real MCP stdio on ${backend}`, () => {
  const session = useMcp();

  it('observe a bundle → submit a batch → consumed; a save closes the next bundle even with unchanged text', async () => {
    const id = (await session.mcp.call('palimpsest_initialize_target', { filename: 'mod.py', content: SOURCE })).result.target_file_id;
    const bundle = (await session.mcp.call('palimpsest_observe_scope', { target_file_id: id, selections: SELECTIONS })).result;
    const guards = { expected_target_version: 0, expected_current_hash: bundle.target_current_hash };
    const call = (args: Record<string, unknown>) => session.mcp.call('palimpsest_submit_observed_operations', { target_file_id: id, intent: 'i', ...args });
    const ok = await call({ observation_bundle_id: bundle.bundle_id, groups: groupsOf(bundle), ...guards, client_request_id: 'mcp-batch-1' });
    expect(ok).toMatchObject({ isError: false, result: { status: 'accepted', version: 1, group_count: 2, evidence: { changes: [{ change_index: 1 }, { change_index: 2 }] } } });
    const next = (await session.mcp.call('palimpsest_observe_scope', { target_file_id: id, selections: SELECTIONS })).result;
    expect((await session.mcp.call('palimpsest_save', { target_file_id: id })).result).toMatchObject({ status: 'saved' });
    const closed = await call({ observation_bundle_id: next.bundle_id, groups: groupsOf(next), expected_target_version: 1, expected_current_hash: ok.result.after_hash, client_request_id: 'mcp-batch-2' });
    expect(closed.result).toMatchObject({ status: 'rejected', diagnostic: { code: 'OBSERVATION_CYCLE_MISMATCH', group_index: 0 } });
    const noKey = await call({ observation_bundle_id: next.bundle_id, groups: groupsOf(next), expected_target_version: 1, expected_current_hash: ok.result.after_hash });
    expect(noKey.result).toMatchObject({ status: 'rejected', diagnostic: { code: 'missing_client_request_id' } });
  });
});

describe(`palimpsest_submit_observed_operations in compact mode over real MCP stdio on ${backend}`, () => {
  it('an accepted batch omits evidence and groups and says so; a single acceptance omits evidence only; a rejection stays whole', async () => {
    const store = await isolatedStore();
    const mcp = await connectMcp({ ...store.env, PALIMPSEST_MCP_RESPONSE_MODE: 'compact' });
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.find((t) => t.name === 'palimpsest_submit_observed_operations')?.description).toContain('omit evidence and groups');
      const id = (await mcp.call('palimpsest_initialize_target', { filename: 'mod.py', content: SOURCE })).result.target_file_id;
      const bundle = (await mcp.call('palimpsest_observe_scope', { target_file_id: id, selections: SELECTIONS })).result;
      const guards = { expected_target_version: 0, expected_current_hash: bundle.target_current_hash };
      const ok = await mcp.call('palimpsest_submit_observed_operations', { target_file_id: id, intent: 'i', observation_bundle_id: bundle.bundle_id, groups: groupsOf(bundle), ...guards, client_request_id: 'compact-1' });
      expect(ok.result).toMatchObject({ status: 'accepted', group_count: 2, change_count: 2, observation_bundle_id: bundle.bundle_id, warnings: [], presentation: { mode: 'compact', omitted: ['evidence', 'groups'] } });
      expect(ok.result.evidence).toBeUndefined();
      expect(ok.result.groups).toBeUndefined();
      expect(ok.text).not.toContain(', ');
      const single = (await mcp.call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'beta' })).result;
      const after = { expected_target_version: 1, expected_current_hash: ok.result.after_hash };
      const one = await mcp.call('palimpsest_submit_observed_operations', { target_file_id: id, intent: 'i', observation_id: single.observation_id, ...after, operations: [{ op: 'match', match: 'return 2', replace: 'return 7' }] });
      expect(one.result).toMatchObject({ status: 'accepted', presentation: { mode: 'compact', omitted: ['evidence'] } });
      const refused = await mcp.call('palimpsest_submit_observed_operations', { target_file_id: id, intent: 'i', observation_id: single.observation_id, ...after, operations: [{ op: 'match', match: 'return 7', replace: 'return 8' }] });
      expect(refused.result.presentation).toBeUndefined();
      expect(refused.result).toMatchObject({ status: 'rejected', diagnostic: { code: 'OBSERVATION_ALREADY_CONSUMED' } });
    } finally {
      await mcp.close();
      await store.dispose();
    }
  });
});
