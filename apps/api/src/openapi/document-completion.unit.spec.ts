import Ajv2020 from 'ajv/dist/2020';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { validateOpenApi } from '../../../../test/support/http-openapi';
import { HTTP_STATUSES } from '../errors/error-envelope';
import { concretePath, GATEWAY_ROUTES, OPERATION_ROUTES, specOf } from '../routes/route-table';
import { completeDocument, type OpenApiDocumentShape } from './document-completion';
import { OPENAPI_EXAMPLES } from './openapi-examples';

/** What Nest's scanner gives completeDocument: every route, its parameters, no responses yet. */
function scannedDocument(): OpenApiDocumentShape {
  const paths: OpenApiDocumentShape['paths'] = {};
  const add = (path: string, method: string, operation: Record<string, unknown>) => {
    (paths[concretePath(path)] ??= {})[method.toLowerCase()] = operation;
  };
  for (const route of OPERATION_ROUTES) {
    const query = route.method === 'GET' ? Object.keys(specOf(route.operation).params.properties as object).map((name) => ({ name, in: 'query', schema: {} })) : [];
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
    add(route.path, route.method, { operationId: route.operation, parameters: route.path.includes(':id') ? [id, ...query] : query });
  }
  for (const route of GATEWAY_ROUTES) {
    const parameters = route.path.includes(':id') ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] : [];
    if (!route.path.startsWith('/docs')) add(route.path, route.method, { operationId: route.name, parameters, responses: { 200: { description: 'theirs' } } });
  }
  return { openapi: '3.1.0', info: { title: 't', version: '0' }, paths };
}

const doc = completeDocument(scannedDocument());
type Media = { schema: Record<string, unknown>; examples?: Record<string, { $ref?: string; value?: unknown }>; example?: unknown };
type Responses = Record<string, { content?: Record<string, Media> }>;
const operationOf = (path: string, method: string) => doc.paths[concretePath(path)]![method.toLowerCase()]! as { responses: Responses; requestBody?: { required: boolean; content: Record<string, Media> }; parameters: { name: string; example?: unknown }[] };
const examples = doc.components!.examples as Record<string, { value: unknown }>;
const exampleValue = (e: { $ref?: string; value?: unknown }) => (e.$ref ? examples[e.$ref.split('/').pop()!]!.value : e.value);

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
ajv.addSchema({ ...doc, $id: 'doc' });
/** Validates against a schema of the document, its #/components references resolved in it. */
function validate(schema: Record<string, unknown>, value: unknown): string[] {
  const rebased = JSON.parse(JSON.stringify(schema).split('"#/components/').join('"doc#/components/'));
  const check = ajv.compile(rebased);
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('the completed OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (the official schema; the served document is validated whole in api-docs-browser.e2e)', async () => {
    const verdict = await validateOpenApi(doc);
    expect(verdict.errors ?? []).toEqual([]);
    expect(verdict.valid).toBe(true);
  });

  it('answers every operation route\'s success with its answer schema, which $refs the catalog result', () => {
    for (const route of OPERATION_ROUTES) {
      const media = operationOf(route.path, route.method).responses[String(route.success)]!.content!['application/json']!;
      expect({ route: route.path, schema: media.schema }).toEqual({ route: route.path, schema: { $ref: `#/components/schemas/${route.operation}.answer` } });
      const answer = doc.components!.schemas![`${route.operation}.answer`] as { allOf: Record<string, unknown>[] };
      expect(answer.allOf[0]).toEqual({ $ref: `#/components/schemas/${route.operation}.result` });
      const { title: _title, ...result } = doc.components!.schemas![`${route.operation}.result`] as Record<string, unknown>;
      expect(result).toEqual(specOf(route.operation).result);
    }
  });

  it('shows every operation\'s real example answer, and each validates against the answer schema and the catalog result', () => {
    expect(Object.keys(OPENAPI_EXAMPLES.operations).sort()).toEqual(CATALOG.map((op) => op.name).sort());
    for (const route of OPERATION_ROUTES) {
      const media = operationOf(route.path, route.method).responses[String(route.success)]!.content!['application/json']!;
      const values = Object.values(media.examples ?? {}).map(exampleValue);
      expect(values.length).toBeGreaterThanOrEqual(1);
      for (const value of values) {
        expect({ operation: route.operation, errors: validate(media.schema, value) }).toEqual({ operation: route.operation, errors: [] });
        expect(validate(specOf(route.operation).result, value)).toEqual([]);
      }
    }
    const previews = operationOf('/v1/targets/:id/previews', 'POST').responses['200']!.content!['application/json']!.examples!;
    expect(Object.values(previews).map((e) => (exampleValue(e) as { status: string }).status)).toEqual(['accepted', 'rejected']);
    // The schemas do constrain: an answer missing its fields, or of another status, fails.
    expect(validate({ $ref: '#/components/schemas/palimpsest_submit_edits.answer' }, { status: 'accepted' })).not.toEqual([]);
    expect(validate({ $ref: '#/components/schemas/palimpsest_get_target.answer' }, { ...(OPENAPI_EXAMPLES.operations.palimpsest_get_target!.result as object), status: 'not_found' })).not.toEqual([]);
  });

  it('gives every POST route a body example that its schema admits, required when the route needs arguments', () => {
    for (const route of OPERATION_ROUTES.filter((r) => r.method === 'POST')) {
      const body = operationOf(route.path, route.method).requestBody!;
      const media = body.content['application/json']!;
      const needed = ((media.schema.required as string[] | undefined) ?? []).length > 0;
      expect({ path: route.path, required: body.required }).toEqual({ path: route.path, required: needed });
      expect({ path: route.path, errors: validate(media.schema, exampleValue(media.examples!.example!)) }).toEqual({ path: route.path, errors: [] });
    }
    expect(operationOf('/v1/targets/:id/edits', 'POST').requestBody!.required).toBe(true);
    expect(operationOf('/v1/targets', 'POST').requestBody!.required).toBe(true);
  });

  it('gives GET routes example parameters: the fixture id and the example\'s query', () => {
    const lines = operationOf('/v1/targets/:id/lines', 'GET').parameters;
    expect(lines.find((p) => p.name === 'id')!.example).toBe('5f0c8a2e-8d1b-4c3e-9a7f-2b6d4e8f1a30');
    expect(lines.find((p) => p.name === 'start_line')!.example).toBe(1);
  });

  it('documents every error status with the ErrorBody and examples whose code the gateway sends with that status', () => {
    const seen = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const operation of Object.values(methods)) {
        for (const [status, response] of Object.entries((operation.responses ?? {}) as Responses)) {
          if (Number(status) < 400 || path === '/health') continue;
          const media = response.content!['application/json']!;
          expect(media.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
          for (const example of Object.values(media.examples ?? {})) {
            const body = exampleValue(example) as { error: { code: keyof typeof HTTP_STATUSES } };
            expect({ path, status, code: body.error.code, sent: (HTTP_STATUSES[body.error.code] as readonly number[]).includes(Number(status)) }).toMatchObject({ sent: true });
            expect(validate(media.schema, body)).toEqual([]);
            seen.add(`${status} ${body.error.code}`);
          }
        }
      }
    }
    for (const pair of ['400 invalid_arguments', '401 unauthenticated', '403 permission_denied', '404 not_found', '409 precondition_failed', '413 resource_limit', '415 invalid_arguments', '422 proposal_rejected', '429 resource_limit', '503 unavailable']) {
      expect(seen).toContain(pair);
    }
  });

  it('shows the 401 the gateway really sends: unauthenticated, not an argument error', () => {
    const response = operationOf('/v1/targets/:id', 'GET').responses['401']! as { description: string; content: Record<string, Media> };
    expect(response.description).toContain('error.code: `unauthenticated`.');
    expect(operationOf('/v1/targets/:id/edits', 'POST').responses['409']).toMatchObject({ description: expect.stringContaining('`precondition_failed`, `conflict`, `stale_snapshot`') });
    const media = response.content['application/json']!;
    expect(Object.values(media.examples!).map((e) => (exampleValue(e) as { error: { code: string; reason: string } }).error)).toEqual([
      expect.objectContaining({ code: 'unauthenticated', reason: 'missing_token' }),
    ]);
  });

  it('documents the gateway\'s own routes\' answers, with the operator routes\' real answers as examples', () => {
    for (const route of GATEWAY_ROUTES.filter((r) => !r.path.startsWith('/docs'))) {
      const responses = operationOf(route.path, route.method).responses;
      expect(Object.keys(responses).map(Number).sort()).toEqual([...route.statuses].sort());
      const success = String(route.statuses.find((status) => status < 300));
      const content = responses[success]!.content!;
      expect({ route: route.name, types: Object.keys(content) }).toEqual({ route: route.name, types: [expect.any(String)] });
      const media = Object.values(content)[0]!;
      for (const example of Object.values(media.examples ?? {})) expect({ route: route.name, errors: validate(media.schema, exampleValue(example)) }).toEqual({ route: route.name, errors: [] });
    }
    expect(Object.keys(OPENAPI_EXAMPLES.gateway).sort()).toEqual(['approvals_list', 'projections_rebuild', 'replay_all']);
    expect(operationOf('/v1/targets/:id/events', 'GET').responses['200']!.content!['text/event-stream']).toBeDefined();
  });

  it('describes the bearer scheme as an opaque token and says how to get one', () => {
    const bearer = doc.components!.securitySchemes!.bearer as Record<string, string>;
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(bearer).not.toHaveProperty('bearerFormat');
    expect(bearer.description).toContain('palimpsest tokens create');
    expect(bearer.description).toMatch(/local token/);
  });
});
