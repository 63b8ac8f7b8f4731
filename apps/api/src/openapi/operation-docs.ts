import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import type { JsonSchema, OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import { CORRELATION_ID_HEADER } from '@palimpsest/protocol/catalog/operations/audit.operations';
import { guardArgumentOf, keyArgumentOf, pathArgumentOf, type OperationRoute } from '../routes/route-table';
import { argumentsSchema } from './arguments-schema';
import { openApiSchema } from './openapi-schema';

export { argumentsSchema };

function inputDocs(route: OperationRoute, spec: OperationSpec): MethodDecorator[] {
  const schema = argumentsSchema(route, spec);
  // The body's examples and whether it is required are completed with the responses (document-completion.ts).
  if (route.method === 'POST') return [ApiBody({ schema: openApiSchema(schema) })];
  const required = (schema.required as string[] | undefined) ?? [];
  return Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, property]) =>
    ApiQuery({ name, required: required.includes(name), description: String(property.description ?? ''), schema: openApiSchema(property) }),
  );
}

function headerDocs(route: OperationRoute, spec: OperationSpec): MethodDecorator[] {
  const docs: MethodDecorator[] = [
    ApiHeader({ name: CORRELATION_ID_HEADER, required: false, description: 'The client session the call belongs to (1-128 of A-Z a-z 0-9 . _ : -): its edits and command runs record it, palimpsest_session_activity reads them back. Absent: one for this request. Answered in the response header.' }),
  ];
  if (route.method === 'GET') {
    if (route.etag) docs.push(ApiHeader({ name: 'If-None-Match', required: false, description: 'A version\'s entity tag ("3"): 304 while the resource is still at it.' }));
    return docs;
  }
  const guard = guardArgumentOf(spec);
  const key = keyArgumentOf(spec);
  if (guard) {
    docs.push(ApiHeader({ name: 'If-Match', required: false, description: `The version guard as an entity tag ("3", from a read's ETag); same as ${guard}.` }));
  }
  if (key) {
    docs.push(ApiHeader({ name: 'Idempotency-Key', required: false, description: `Same as ${key}: the identical request returns the recorded outcome.` }));
  }
  return docs;
}

/**
 * The OpenAPI description of one catalog route's inputs, generated from the catalog entry itself; its
 * responses are written by completeDocument, from the same route table.
 */
export function operationDocs(route: OperationRoute, spec: OperationSpec): MethodDecorator[] {
  const docs: MethodDecorator[] = [
    ApiOperation({ operationId: spec.name, summary: spec.title, description: `${spec.description}\n\nScope: \`${route.scope}\`.` }),
    ApiBearerAuth('bearer'),
    ...inputDocs(route, spec),
    ...headerDocs(route, spec),
  ];
  const inPath = pathArgumentOf(route);
  if (inPath) docs.push(ApiParam({ name: 'id', description: `The ${inPath} (a UUID).`, schema: { type: 'string' } }));
  return docs;
}
