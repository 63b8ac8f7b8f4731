import { assertNoInternalErrors, hostileFixture, type TransportCall } from '../support/hostile-text-driver';
import { useMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`palimpsest mcp: hostile text in tool arguments never fails the call (${backend})`, () => {
  const session = useMcp();
  // A tool that threw reaches the SDK client as a JSON-RPC error, which callTool throws.
  const call: TransportCall = async (name, args) => {
    try {
      return { answer: (await session.mcp.call(name, args)).result, internal: null };
    } catch (err) {
      return { answer: {}, internal: `tools/call failed: ${(err as Error).message}` };
    }
  };


  it('answers a NUL request key with the recorded invalid_client_request_id rejection', async () => {
    const f = await hostileFixture(call);
    const r = await session.mcp.call('palimpsest_submit_edits', {
      target_file_id: f.target, intent: 'rename', expected_target_version: f.version, client_request_id: '\u0000',
      edits: [{ match: 'beta', replace: 'gamma' }],
    });
    expect(r.isError).toBe(true);
    expect(r.result).toMatchObject({ status: 'rejected', failure_reason: 'context_invalid', diagnostic: { code: 'invalid_client_request_id' }, retryable: 'none' });
  });

  it('never fails a call for NUL, lone surrogates or noncharacters in any string field', async () => {
    await assertNoInternalErrors(call, await hostileFixture(call), 150);
  });
});
