import { isolatedStore } from '../support/cli-process';
import { assertNoInternalErrors, hostileFixture, type TransportCall } from '../support/hostile-text-driver';
import { JsonLinesClient } from '../support/json-lines-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`palimpsest serve: hostile text in string fields never answers -32603 (${backend})`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let serve: JsonLinesClient;
  // invalid_argument and not_found travel as JSON-RPC errors carrying the whole result; -32603 is the failure.
  const call: TransportCall = async (name, args) => {
    const r = await serve.call(name, args);
    if (!r.error) return { answer: r.result, internal: null };
    const carried = r.error.code === -32602 || r.error.code === -32000;
    return { answer: r.error.data ?? {}, internal: carried ? null : `JSON-RPC error ${JSON.stringify(r.error)}` };
  };

  beforeAll(async () => {
    store = await isolatedStore();
    serve = new JsonLinesClient([], store.env);
  });
  afterAll(async () => {
    serve?.kill();
    await store?.dispose();
  });

  it('answers a NUL request key with the recorded invalid_client_request_id rejection, not retryable', async () => {
    const f = await hostileFixture(call);
    const r = await serve.call('palimpsest_submit_edits', {
      target_file_id: f.target, intent: 'rename', expected_target_version: f.version, client_request_id: 'req\u0000',
      edits: [{ match: 'beta', replace: 'gamma' }],
    });
    expect(r.error).toBeUndefined();
    expect(r.result).toMatchObject({ status: 'rejected', failure_reason: 'context_invalid', diagnostic: { code: 'invalid_client_request_id' }, retryable: 'none' });
  });

  it('never answers an internal error for NUL, lone surrogates or noncharacters in any string field', async () => {
    await assertNoInternalErrors(call, await hostileFixture(call), 150);
    expect(serve.stderr).not.toMatch(/invalid byte sequence|internal/i);
  });
});
