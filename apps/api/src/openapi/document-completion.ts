import type { JsonSchema } from '@palimpsest/protocol/catalog/operation-spec';
import { concretePath, GATEWAY_ROUTES, OPERATION_ROUTES, specOf } from '../routes/route-table';
import { argumentsSchema } from './arguments-schema';
import { componentExamples, componentSchemas } from './openapi-components';
import { gatewayResponses, operationRequestBody, operationResponses, parameterExample } from './operation-responses';

/** The parts of an OpenAPI document this module reads and writes (Swagger's own model is narrower than 3.1). */
export interface OpenApiDocumentShape {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, unknown>; examples?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  [key: string]: unknown;
}

interface OperationObject {
  parameters?: { name: string; in: string; example?: unknown; [key: string]: unknown }[];
  requestBody?: unknown;
  responses?: Record<string, { description?: string }>;
  [key: string]: unknown;
}

export const BEARER_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description:
    'An opaque Palimpsest token (pal_…), not a JWT: create one with `palimpsest tokens create --scopes read,write` (scopes read, write, operator, auditor; executor for `palimpsest connect`), or use the local token the gateway prints at start on the embedded store. Send it as `Authorization: Bearer pal_…`.',
};

function operationAt(document: OpenApiDocumentShape, path: string, method: string): OperationObject {
  const operation = document.paths[concretePath(path)]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the document has no ${method} ${path}`);
  return operation;
}

/**
 * Completes the document Nest's scanner built from the controllers: each route's responses (answer
 * schemas, real examples, error examples), required request bodies and their examples, parameter
 * examples, the shared components and the bearer scheme.
 */
export function completeDocument<D extends OpenApiDocumentShape>(document: D): D {
  for (const route of OPERATION_ROUTES) {
    const operation = operationAt(document, route.path, route.method);
    operation.responses = operationResponses(route);
    if (route.method === 'POST') operation.requestBody = operationRequestBody(route, argumentsSchema(route, specOf(route.operation)) as JsonSchema);
    for (const parameter of operation.parameters ?? []) {
      const example = parameterExample(route, parameter.name, parameter.in);
      if (example !== undefined) parameter.example = example;
    }
  }
  for (const route of GATEWAY_ROUTES) {
    const operation = document.paths[concretePath(route.path)]?.[route.method.toLowerCase()];
    if (operation) operation.responses = gatewayResponses(route, operation.responses ?? {});
  }
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...componentSchemas() },
    examples: { ...document.components?.examples, ...componentExamples() },
    securitySchemes: { ...document.components?.securitySchemes, bearer: BEARER_SCHEME },
  };
  return document;
}
