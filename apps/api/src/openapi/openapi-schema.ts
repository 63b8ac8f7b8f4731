import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { JsonSchema } from '@palimpsest/protocol/catalog/operation-spec';

/**
 * A catalog JSON Schema (2020-12) as an OpenAPI 3.1 schema object: 3.1 adopted JSON Schema 2020-12, so
 * the value is the same; only Swagger's TypeScript model is narrower than what it accepts.
 */
export function openApiSchema(schema: JsonSchema): SchemaObject {
  return schema as SchemaObject;
}
