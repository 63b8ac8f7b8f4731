import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ERROR_ENVELOPE_SCHEMA } from '../errors/error-envelope';
import { openApiSchema } from './openapi-schema';

const DESCRIPTION = `Every Palimpsest catalog operation over HTTP. Answers are the same objects the MCP server returns;
an error answer (any non-2xx) adds an \`error\` object: \`code\`, \`reason\`, \`message\`, \`retryable\`
(none | same_request | after_refresh) and \`next_actions\`. Reads carry \`ETag: "<version>"\`; send it back as
\`If-Match\` to guard a write. \`Idempotency-Key\` is the operation's \`client_request_id\`.`;

/** OpenAPI 3.1, from the controllers' decorators, which are generated from the catalog and the route table. */
export function buildOpenApiDocument(app: INestApplication, version: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Palimpsest HTTP API')
    .setDescription(DESCRIPTION)
    .setVersion(version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A pal_… token from `palimpsest tokens create`.' }, 'bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.components ??= {};
  document.components.schemas = {
    ...document.components.schemas,
    ErrorEnvelope: openApiSchema(ERROR_ENVELOPE_SCHEMA),
    ErrorBody: openApiSchema({
      type: 'object',
      description: 'The operation\'s own answer fields (status, code, failure_reason, diagnostic, …) plus error.',
      required: ['status', 'error'],
      properties: { status: { type: 'string' }, error: { $ref: '#/components/schemas/ErrorEnvelope' } },
    }),
  };
  return document;
}
