import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import type { Db } from '@palimpsest/store/db';
import { ApiModule } from './api.module';
import { ApiRuntime } from './api-runtime';
import type { ApiConfig } from './config/api-config';
import { buildOpenApiDocument } from './openapi/openapi-document';

export interface RunningApi {
  url: string;
  /** Stops accepting, closes event streams, lets in-flight requests finish (up to the grace period). */
  close(): Promise<{ drained: boolean }>;
}

/** Builds the Nest application on an open, migrated store and starts listening. */
export async function startApiServer(store: Db, config: ApiConfig, version: string): Promise<RunningApi> {
  let logger: Logger | undefined;
  const runtime = new ApiRuntime(store, config, (error, context) => {
    if (logger) logger.error({ err: error, context }, `${context} failed`);
    else process.stderr.write(`palimpsest api: ${context} failed: ${String(error)}\n`);
  });
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.register(runtime), {
    bodyParser: false, // bodies are read after authentication (JsonBodyInterceptor)
    bufferLogs: true,
  });
  const appLogger = app.get(Logger);
  logger = appLogger;
  app.useLogger(appLogger);
  app.set('etag', false); // ETag is the target version, set by the runner; Express must not add its own
  app.disable('x-powered-by');
  app.use(runtime.tracker.middleware);
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app, version), {
    jsonDocumentUrl: 'docs/openapi.json',
    customSiteTitle: 'Palimpsest HTTP API',
  });
  if (config.auth) await runtime.tokens.start();
  await app.listen(config.port, config.host);
  const server = app.getHttpServer() as Server;
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { url: `http://${host}:${port}`, close: () => shutdown(app, runtime, server) };
}

/**
 * Drain first, close after: while in-flight requests finish, the listener stays open and answers
 * anything new with 503 (a clean refusal a client can retry elsewhere), because closing it first
 * would also drop keep-alive sockets whose next request is already on the wire.
 */
async function shutdown(app: NestExpressApplication, runtime: ApiRuntime, server: Server): Promise<{ drained: boolean }> {
  runtime.tracker.startDraining();
  runtime.streams.closeAll('server shutting down; reconnect with Last-Event-ID');
  const drained = await runtime.tracker.settle(runtime.config.shutdownGraceMs);
  server.close();
  server.closeAllConnections();
  await runtime.tokens.stop();
  await runtime.hub.stop();
  await app.close();
  return { drained };
}
