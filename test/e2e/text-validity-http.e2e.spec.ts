import { OPERATION_ROUTES, concretePath, pathArgumentOf } from '@palimpsest/api/routes/route-table';

import { useGateway } from '../support/http-server';
import { assertNoInternalErrors, hostileFixture, type TransportCall } from '../support/hostile-text-driver';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** URLs carry UTF-8: a lone surrogate cannot be sent in a path or query (fetch would send U+FFFD). */
function urlSafe(text: string): { text: string; lossy: boolean } {
  const safe = text.replace(LONE_SURROGATE, '\ufffd');
  return { text: safe, lossy: safe !== text };
}

describe(`palimpsest api: hostile text in any argument never answers 5xx (${backend})`, () => {
  const gw = useGateway('read,write,operator,auditor');

  const call: TransportCall = async (name, args) => {
    const route = OPERATION_ROUTES.find((r) => r.operation === name)!;
    const rest: Record<string, unknown> = { ...args };
    const inPath = pathArgumentOf(route);
    let lossy = false;
    let id: string | undefined;
    if (inPath) {
      const carried = urlSafe(String(rest[inPath]));
      delete rest[inPath];
      id = encodeURIComponent(carried.text);
      lossy ||= carried.lossy;
    }
    const path = concretePath(route.path, id);
    let r;
    if (route.method === 'GET') {
      const query: Record<string, string> = {};
      for (const [k, v] of Object.entries(rest)) {
        const carried = urlSafe(Array.isArray(v) ? v.join(',') : String(v));
        query[k] = carried.text;
        lossy ||= carried.lossy;
      }
      r = await gw.http.get(path, query);
    } else {
      r = await gw.http.post(path, rest);
    }
    return { answer: r.body ?? {}, internal: r.status >= 500 ? `HTTP ${r.status}` : null, lossy };
  };


  it('answers a NUL request key 422 with the recorded invalid_client_request_id rejection, not 500', async () => {
    const f = await hostileFixture(call);
    const r = await gw.http.post(`/v1/targets/${f.target}/edits`, {
      intent: 'rename', expected_target_version: f.version, client_request_id: 'req\u0000', edits: [{ match: 'beta', replace: 'gamma' }],
    });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ status: 'rejected', failure_reason: 'context_invalid', diagnostic: { code: 'invalid_client_request_id' } });
    expect(r.body.error.retryable).not.toBe('same_request');
  });

  it('never answers 5xx for NUL, lone surrogates or noncharacters in any string field, in path, query or body', async () => {
    await assertNoInternalErrors(call, await hostileFixture(call), 150);
    expect(gw.api.stderr()).not.toMatch(/invalid byte sequence/);
  });
});
