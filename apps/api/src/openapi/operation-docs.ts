import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { JsonSchema, OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import { openApiSchema } from './openapi-schema';
import { documentedStatuses, STATUS_MEANINGS } from '../routes/documented-statuses';
import { guardArgumentOf, keyArgumentOf, pathArgumentOf, type OperationRoute } from '../routes/route-table';

export const ERROR_BODY_REF = { $ref: '#/components/schemas/ErrorBody' };

/** The catalog's params schema without the argument the path carries. */
export function argumentsSchema(route: OperationRoute, spec: OperationSpec): JsonSchema {
  const inPath = pathArgumentOf(route);
  if (!inPath) return spec.params;
  const { [inPath]: _inPath, ...properties } = spec.params.properties as Record<string, JsonSchema>;
  const required = ((spec.params.required as string[] | undefined) ?? []).filter((n) => n !== inPath);
  const { required: _all, ...rest } = spec.params;
  return required.length ? { ...rest, properties, required } : { ...rest, properties };
}

function inputDocs(route: OperationRoute, spec: OperationSpec): MethodDecorator[] {
  const schema = argumentsSchema(route, spec);
  if (route.method === 'POST') {
    const examples = Object.fromEntries(
      spec.examples.map((e, i) => {
        const { [pathArgumentOf(route) ?? '']: _inPath, ...value } = e.params;
        return [`example_${i + 1}`, { summary: e.title, value }];
      }),
    );
    return [ApiBody({ required: false, schema: openApiSchema(schema), ...(spec.examples.length ? { examples } : {}) })];
  }
  const required = (schema.required as string[] | undefined) ?? [];
  return Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, property]) =>
    ApiQuery({ name, required: required.includes(name), description: String(property.description ?? ''), schema: openApiSchema(property) }),
  );
}

function headerDocs(route: OperationRoute, spec: OperationSpec): MethodDecorator[] {
  const docs: MethodDecorator[] = [];
  if (route.method === 'GET') return docs;
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

function responseDocs(route: OperationRoute, spec: OperationSpec): MethodDecorator[] {
  return documentedStatuses(route).map((status) => {
    const description = STATUS_MEANINGS[status] ?? '';
    if (status === 304) return ApiResponse({ status, description });
    if (status === route.success) {
      const headers = route.etag ? { ETag: { description: 'The target version, quoted ("3").', schema: { type: 'string' } } } : undefined;
      return ApiResponse({ status, description, schema: openApiSchema(spec.result), ...(headers ? { headers } : {}) });
    }
    return errorResponse(status);
  });
}

export function errorResponse(status: number): MethodDecorator {
  return ApiResponse({ status, description: STATUS_MEANINGS[status] ?? '', schema: openApiSchema(ERROR_BODY_REF) });
}

/** The OpenAPI description of one catalog route, generated from the catalog entry itself. */
export function operationDocs(route: OperationRoute, spec: OperationSpec): MethodDecorator[] {
  const docs: MethodDecorator[] = [
    ApiOperation({ operationId: spec.name, summary: spec.title, description: `${spec.description}\n\nScope: \`${route.scope}\`.` }),
    ApiBearerAuth('bearer'),
    ...inputDocs(route, spec),
    ...headerDocs(route, spec),
    ...responseDocs(route, spec),
  ];
  const inPath = pathArgumentOf(route);
  if (inPath) docs.push(ApiParam({ name: 'id', description: `The ${inPath} (a UUID).`, schema: { type: 'string' } }));
  return docs;
}
