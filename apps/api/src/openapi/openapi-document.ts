import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { completeDocument, type OpenApiDocumentShape } from './document-completion';

const DESCRIPTION = `Every Palimpsest catalog operation over HTTP. Answers are the same objects the MCP server returns;
an error answer (any non-2xx) adds an \`error\` object: \`code\`, \`reason\`, \`message\`, \`retryable\`
(none | same_request | after_refresh) and \`next_actions\` (each an operation with its complete arguments, and
the method and path to send them to). Reads carry \`ETag: "<version>"\`; send it back as \`If-Match\` to guard a
write. \`Idempotency-Key\` is the operation's \`client_request_id\`. Every example answer in this document is
the real answer of its example request, run against a target holding \`alpha beta alpha\\n\` at version 0.`;

/** OpenAPI 3.1, from the controllers' decorators (generated from the catalog and the route table), then completed. */
export function buildOpenApiDocument(app: INestApplication, version: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Palimpsest HTTP API')
    .setDescription(DESCRIPTION)
    .setVersion(version)
    .build();
  const document = SwaggerModule.createDocument(app, config);
  return completeDocument(document as unknown as OpenApiDocumentShape) as unknown as OpenAPIObject;
}
