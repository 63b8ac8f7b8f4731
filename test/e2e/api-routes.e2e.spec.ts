import { CATALOG, isOperationName } from '@palimpsest/protocol/catalog/catalog';
import { GATEWAY_ROUTES, OPERATION_ROUTES } from '@palimpsest/api/routes/route-table';
import { H0 } from '../support/http-client';
import { validateOpenApi } from '../support/http-openapi';
import { useGateway } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Every catalog route over real HTTP: success and failure paths, the seed's golden vectors, headers. */
describe(`palimpsest api: catalog routes over HTTP on ${backend}`, () => {
  const gw = useGateway('read,write,operator,auditor');

  const create = async (content: string) => {
    const r = await gw.http.post('/v1/targets', { filename: 'doc.md', content });
    expect(r.status).toBe(201);
    return r.body.target_file_id as string;
  };
  const edit = (id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    gw.http.post(`/v1/targets/${id}/edits`, { intent: 'Rename', ...body }, { headers });


  it('reproduces the seed golden vectors', async () => {
    const up = await gw.http.post('/v1/uploads', { filename: 'doc.md', content: 'alpha beta alpha\r\n', content_type: 'text/markdown' });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ status: 'ok', version: 0, current_hash: H0, source_line_endings: { style: 'crlf', crlf: 1 } });
    const id = up.body.target_file_id;
    expect(up.headers.get('location')).toBe(`/v1/targets/${id}`);

    const ambiguous = await edit(id, { expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }] });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body).toMatchObject({
      status: 'rejected',
      failure_reason: 'match_ambiguous',
      diagnostic: { occurrence_count: 2 },
      error: { code: 'proposal_rejected', reason: 'match_ambiguous', retryable: 'after_refresh' },
    });
    // HTTP shows the operation's own next actions (one list on every transport), each with its route.
    expect(ambiguous.body.error.next_actions).toEqual(ambiguous.body.next_actions.map((a: object) => expect.objectContaining(a)));
    expect(ambiguous.body.error.next_actions[0]).toMatchObject({ operation: 'palimpsest_submit_edits', method: 'POST', path: `/v1/targets/${id}/edits` });

    const accepted = await edit(id, { expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }] });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', version: 1, evidence: { changes: [{ span_start: 11, span_end: 16 }] } });
    expect(accepted.body.after_hash.slice(0, 8)).toBe('adf7157c');
    expect(accepted.body.error).toBeUndefined();
  });

  it('serves the reads with ETag = version and answers If-None-Match with 304', async () => {
    const id = await create('one\ntwo alpha\nthree alpha\n');
    const got = await gw.http.get(`/v1/targets/${id}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe('"0"');
    expect(got.body).toMatchObject({ status: 'ok', current_content: 'one\ntwo alpha\nthree alpha\n', version: 0 });
    expect((await gw.http.get(`/v1/targets/${id}`, undefined, { headers: { 'if-none-match': '"0"' } })).status).toBe(304);
    expect((await gw.http.get(`/v1/targets/${id}`, undefined, { headers: { 'if-none-match': '"7"' } })).status).toBe(200);

    const slice = await gw.http.get(`/v1/targets/${id}/text`, { start: 4, length: 3 });
    expect(slice.body).toMatchObject({ status: 'ok', text: 'two' });
    const lines = await gw.http.get(`/v1/targets/${id}/lines`, { start_line: 2, end_line: 3, include_line_starts: true });
    expect(lines.body).toMatchObject({ status: 'ok', text: 'two alpha\nthree alpha\n', line_starts: [{ line: 2, start: 4 }, { line: 3, start: 14 }] });
    const found = await gw.http.get(`/v1/targets/${id}/occurrences`, { text: 'alpha', context_chars: 2 });
    expect(found.body).toMatchObject({ status: 'ok', occurrence_count: 2 });
    const exported = await gw.http.get(`/v1/targets/${id}/export`, { format: 'crlf' });
    expect(exported.body).toMatchObject({ status: 'ok', content: 'one\r\ntwo alpha\r\nthree alpha\r\n' });
    expect(exported.headers.get('etag')).toBe('"0"');
  });

  it('refuses bad reads with 400 and unknown targets with 404, each with its envelope', async () => {
    const id = await create('x\n');
    const negative = await gw.http.get(`/v1/targets/${id}/text`, { start: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body).toMatchObject({ status: 'invalid_argument', code: 'invalid_argument_value', error: { code: 'invalid_arguments', retryable: 'none' } });
    expect((await gw.http.get(`/v1/targets/${id}/text`, { start: 'abc' })).body.code).toBe('invalid_argument_value');
    const unknownArg = await gw.http.get(`/v1/targets/${id}/text`, { begin: 0 });
    expect(unknownArg.body).toMatchObject({ code: 'unknown_argument', unknown_arguments: ['begin'] });
    expect((await gw.http.get(`/v1/targets/${id}/lines`, { start_line: 9 })).body.code).toBe('line_out_of_range');
    expect((await gw.http.get(`/v1/targets/${id}/export`, { format: 'utf7' })).body.code).toBe('unsupported_export_format');
    expect((await gw.http.get(`/v1/targets/${id}/occurrences`)).body.code).toBe('missing_argument');
    expect((await gw.http.get('/v1/targets/not-a-uuid')).body).toMatchObject({ code: 'invalid_target_file_id', error: { code: 'invalid_arguments' } });

    const missing = await gw.http.get(`/v1/targets/${UNKNOWN}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: 'not_found', code: 'target_not_found', error: { code: 'not_found', reason: 'target_not_found' } });
    expect((await edit(UNKNOWN, { expected_target_version: 0, edits: [{ match: 'a', replace: 'b' }] })).status).toBe(404);
    const route = await gw.http.get('/v1/nothing-here');
    expect(route.status).toBe(404);
    expect(route.body.error).toMatchObject({ code: 'not_found', reason: 'route_not_found' });
  });

  it('runs tx/2, tx/3, preview, save, replay, history and capabilities', async () => {
    const id = await create('alpha beta alpha\n');
    const span = await gw.http.post(`/v1/targets/${id}/operations`, {
      intent: 'Rename by span',
      expected_target_version: 0,
      operations: [{ op: 'span', start: 11, end: 16, expected_text: 'alpha', replace: 'gamma' }],
    });
    expect(span).toMatchObject({ status: 200, body: { status: 'accepted', version: 1 } });
    const preview = await gw.http.post(`/v1/targets/${id}/previews`, { format: 'patchdiff-tx/1', expected_target_version: 1, intent: 'x', edits: [{ match: 'zeta', replace: 'y' }] });
    expect(preview).toMatchObject({ status: 200, body: { status: 'rejected', preview: true, failure_reason: 'match_absent' } });
    const replaced = await gw.http.post(`/v1/targets/${id}/replacement`, { intent: 'Rewrite', replacement: 'new text\n' }, { headers: { 'if-match': '"1"' } });
    expect(replaced).toMatchObject({ status: 200, body: { status: 'accepted', version: 2 } });
    const saved = await gw.http.post(`/v1/targets/${id}/checkpoints`, { expected_target_version: 2, export_after_save: true });
    expect(saved).toMatchObject({ status: 201, body: { status: 'saved', version: 2, export: { content: 'new text\n' } } });
    const staleSave = await gw.http.post(`/v1/targets/${id}/checkpoints`, {}, { headers: { 'if-match': '"1"' } });
    expect(staleSave).toMatchObject({ status: 409, body: { status: 'rejected', failure_reason: 'target_version_mismatch', error: { code: 'precondition_failed' } } });
    expect((await gw.http.post(`/v1/targets/${id}/replay`)).body).toMatchObject({ status: 'success', materialized_state_matches: true });
    const attempts = await gw.http.get(`/v1/targets/${id}/attempts`, { limit: 1, status: 'accepted' });
    expect(attempts.body).toMatchObject({ status: 'ok', has_more: true });
    expect(attempts.body.entries).toHaveLength(1);
    expect((await gw.http.get(`/v1/targets/${id}/ledger`, { include_previous_cycles: true })).body.entries).toHaveLength(2);
    const caps = await gw.http.get('/v1/capabilities');
    expect(caps).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('takes If-Match as the version guard; a stale one is 409 with the full rejection', async () => {
    const id = await create('alpha\n');
    const etag = (await gw.http.get(`/v1/targets/${id}`)).headers.get('etag')!;
    const ok = await edit(id, { edits: [{ match: 'alpha', replace: 'beta' }] }, { 'if-match': etag });
    expect(ok.body).toMatchObject({ status: 'accepted', version: 1 });
    const stale = await edit(id, { edits: [{ match: 'beta', replace: 'gamma' }] }, { 'if-match': etag });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      status: 'rejected',
      failure_reason: 'target_version_mismatch',
      current_version: 1,
      attempt_id: expect.any(String),
      diagnostic: { code: 'target_version_mismatch' },
      error: {
        code: 'precondition_failed',
        retryable: 'after_refresh',
        // The same edit with the guard refreshed (it still applies), then the read.
        next_actions: [
          { operation: 'palimpsest_submit_edits', method: 'POST', path: `/v1/targets/${id}/edits`, body: { expected_target_version: 1, edits: [{ match: 'beta', replace: 'gamma' }] } },
          { method: 'GET', path: `/v1/targets/${id}` },
        ],
      },
    });
    const conflicting = await edit(id, { expected_target_version: 1, edits: [{ match: 'beta', replace: 'c' }] }, { 'if-match': '"0"' });
    expect(conflicting).toMatchObject({ status: 400, body: { code: 'guard_conflict' } });
    expect((await edit(id, { edits: [{ match: 'beta', replace: 'c' }] }, { 'if-match': 'W/"1"' })).body.code).toBe('invalid_if_match');
    expect((await edit(id, { expected_target_version: 1, edits: [{ match: 'beta', replace: 'c' }] }, { 'if-match': '"1"' })).status).toBe(200);
    const onCreate = await gw.http.post('/v1/targets', { filename: 'a', content: '' }, { headers: { 'if-match': '"0"' } });
    expect(onCreate).toMatchObject({ status: 400, body: { code: 'if_match_not_supported' } });
  });

  it('takes Idempotency-Key as client_request_id: recovery, and 409 for another proposal', async () => {
    const id = await create('alpha\n');
    const key = { 'idempotency-key': 'req-42' };
    const first = await edit(id, { expected_target_version: 0, edits: [{ match: 'alpha', replace: 'beta' }] }, key);
    expect(first.body).toMatchObject({ status: 'accepted', deduplicated: false, client_request_id: 'req-42' });
    const again = await edit(id, { expected_target_version: 0, edits: [{ match: 'alpha', replace: 'beta' }] }, key);
    expect(again).toMatchObject({ status: 200, body: { status: 'accepted', deduplicated: true, attempt_id: first.body.attempt_id } });
    const other = await edit(id, { expected_target_version: 1, edits: [{ match: 'beta', replace: 'gamma' }] }, key);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({
      status: 'rejected',
      failure_reason: 'context_invalid',
      diagnostic: { code: 'request_key_conflict' },
      error: {
        code: 'conflict',
        reason: 'request_key_conflict',
        next_actions: [
          { operation: 'palimpsest_submit_edits', body: { client_request_id: `req-42~retry-${other.body.attempt_id.slice(0, 8)}`, edits: [{ match: 'beta', replace: 'gamma' }] } },
          { operation: 'palimpsest_get_attempt_log', method: 'GET', path: `/v1/targets/${id}/attempts?client_request_id=req-42` },
        ],
      },
    });
    const mismatch = await edit(id, { expected_target_version: 1, client_request_id: 'other', edits: [{ match: 'beta', replace: 'g' }] }, key);
    expect(mismatch).toMatchObject({ status: 400, body: { code: 'idempotency_key_conflict' } });
    const log = await gw.http.get(`/v1/targets/${id}/attempts`, { client_request_id: 'req-42' });
    expect(log.body.entries).toHaveLength(1);
  });

  it('refuses bodies that are not JSON objects, too large, or sent with a query', async () => {
    const id = await create('alpha\n');
    const path = `/v1/targets/${id}/edits`;
    expect((await gw.http.request('POST', path, { raw: '{"intent":', headers: { 'content-type': 'application/json' } })).body).toMatchObject({
      code: 'invalid_json',
      error: { code: 'invalid_arguments', reason: 'invalid_json' },
    });
    expect((await gw.http.request('POST', path, { raw: 'intent=x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await gw.http.post(path, [1, 2])).body.code).toBe('invalid_params');
    expect((await gw.http.request('POST', path, { body: { intent: 'x' }, query: { expected_target_version: 0 } })).body.code).toBe('unexpected_query');
    expect((await gw.http.post(path, { target_file_id: UNKNOWN, intent: 'x' })).body.code).toBe('target_file_id_mismatch');

    const tooLarge = await gw.http.post(path, { intent: 'x', replacement: 'a'.repeat(4 * 1024 * 1024 + 1) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ code: 'request_too_large', error: { code: 'resource_limit', reason: 'request_too_large' } });
    const replacement = await gw.http.post(`/v1/targets/${id}/replacement`, { intent: 'x', expected_target_version: 0, replacement: 'b'.repeat(1_048_577) });
    expect(replacement.status).toBe(413);
    expect(replacement.body).toMatchObject({ status: 'invalid_argument', code: 'replacement_too_large', error: { code: 'resource_limit' } });
    expect((await gw.http.get(`/v1/targets/${id}`)).body.version).toBe(0);
  });

  it('sends no CORS headers unless PALIMPSEST_CORS_ORIGINS allows an origin (api-cors)', async () => {
    const origin = 'https://app.example.com';
    const preflight = await fetch(new URL('/v1/targets', gw.api.url), {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const read = await gw.http.get('/v1/capabilities', undefined, { headers: { origin } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('echoes a caller X-Request-Id and puts it in error envelopes', async () => {
    const r = await gw.http.get(`/v1/targets/${UNKNOWN}`, undefined, { headers: { 'x-request-id': 'trace-123' } });
    expect(r.headers.get('x-request-id')).toBe('trace-123');
    expect(r.body.error.trace_id).toBe('trace-123');
    expect((await gw.http.get('/health')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes a valid OpenAPI 3.1 document built from the catalog schemas', async () => {
    const doc = (await gw.http.get('/docs/openapi.json', undefined, { token: null })).body;
    expect(doc.openapi).toBe('3.1.0');
    const verdict = await validateOpenApi(doc);
    expect(verdict).toMatchObject({ valid: true });
    const operations = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((p) => Object.values(p));
    expect(operations.map((o) => o.operationId).filter((n) => isOperationName(n)).sort()).toEqual(CATALOG.map((o) => o.name).sort());
    for (const route of OPERATION_ROUTES) {
      const op = doc.paths[route.path.replace(':id', '{id}')][route.method.toLowerCase()];
      expect(op.operationId).toBe(route.operation);
    }
    const edits = CATALOG.find((o) => o.name === 'palimpsest_submit_edits')!.params as any;
    const { target_file_id: _inPath, ...properties } = edits.properties;
    const body = doc.paths['/v1/targets/{id}/edits'].post.requestBody.content['application/json'].schema;
    expect(body).toEqual({ ...edits, properties, required: ['intent', 'edits'] });
    expect((await gw.http.get('/docs', undefined, { token: null })).text).toContain('swagger');
  });

  it('serves every path of the OpenAPI document (none answers route_not_found)', async () => {
    const id = await create('alpha\n');
    const doc = (await gw.http.get('/docs/openapi.json')).body;
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(methods)) {
        const concrete = path.replace('{id}', id);
        if (path.endsWith('/events')) {
          const res = await fetch(new URL(concrete, gw.api.url), { headers: { authorization: `Bearer ${gw.http.token}` }, signal: AbortSignal.timeout(3000) });
          expect({ path, status: res.status, type: res.headers.get('content-type') }).toMatchObject({ status: 200, type: expect.stringContaining('text/event-stream') });
          await res.body?.cancel();
          continue;
        }
        const r = await gw.http.request(method.toUpperCase(), concrete, method === 'post' ? { body: {} } : {});
        const documented = Object.keys((methods[method] as any).responses).map(Number);
        expect({ path, method, status: r.status, documented: documented.includes(r.status) }).toMatchObject({ documented: true });
        expect(r.body?.error?.reason).not.toBe('route_not_found');
      }
    }
    expect(GATEWAY_ROUTES.filter((r) => r.path.startsWith('/v1')).every((r) => doc.paths[r.path.replace(':id', '{id}')])).toBe(true);
  });

  it('reports health and metrics without a token', async () => {
    const health = await gw.http.get('/health', undefined, { token: null });
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', info: { database: { status: 'up', backend: backend }, migrations: { status: 'up' } } } });
    const metrics = (await gw.http.get('/metrics', undefined, { token: null })).text;
    expect(metrics).toMatch(/palimpsest_submissions_total\{operation="palimpsest_submit_edits",status="accepted",reason="none"\} \d+/);
    expect(metrics).toMatch(/palimpsest_submissions_total\{operation="palimpsest_submit_edits",status="rejected",reason="target_version_mismatch"\}/);
    expect(metrics).toMatch(/palimpsest_operation_duration_seconds_bucket\{le="0.1",operation="palimpsest_get_target",status="ok"\}/);
    expect(metrics).toMatch(/palimpsest_http_requests_total\{method="GET",route="\/v1\/targets\/:id",status="200"\}/);
    expect(metrics).toMatch(/palimpsest_db_pool_max \d+/);
    expect(metrics).toMatch(/palimpsest_db_connections_busy \d+/);
    expect(metrics).toMatch(/palimpsest_commit_batch_size_count [1-9]\d*/); // accepted submits committed by one statement
    expect(metrics).toMatch(/palimpsest_commit_batches_retried_total \d+/);
  });
});
