import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** What a browser page on an allowed origin may send, and read back, beyond the CORS-safelisted basics. */
const REQUEST_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'Idempotency-Key', 'Last-Event-ID', 'X-Request-Id', 'X-Correlation-Id', 'Mcp-Session-Id', 'Mcp-Protocol-Version'];
const RESPONSE_HEADERS = ['ETag', 'Location', 'Retry-After', 'WWW-Authenticate', 'X-Request-Id', 'X-Correlation-Id', 'Mcp-Session-Id'];

/**
 * CORS for the allow-listed origins only (PALIMPSEST_CORS_ORIGINS); nothing at all without one. A
 * preflight is answered before authentication (browsers send it without the Authorization header);
 * a disallowed origin gets no Access-Control-Allow-Origin, so its pages cannot read the answer.
 * Tokens travel in the Authorization header, never in cookies: credentials stay off.
 */
export function enableCors(app: NestFastifyApplication, origins: string[]): void {
  if (origins.length === 0) return;
  app.enableCors({
    origin: origins,
    methods: ['GET', 'HEAD', 'POST', 'DELETE'], // DELETE: ending an MCP session
    allowedHeaders: REQUEST_HEADERS,
    exposedHeaders: RESPONSE_HEADERS,
    credentials: false,
    maxAge: 600,
  });
}
