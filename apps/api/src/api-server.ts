import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { Db } from '@palimpsest/store/db';
import type { OpenedReplica } from '@palimpsest/store/open-db';
import { ApiModule } from './api.module';
import { ApiRuntime } from './api-runtime';
import type { ApiConfig } from './config/api-config';
import { enableCors } from './config/cors';
import { frameworkErrorHandler } from './errors/api-exception.filter';
import { clientErrorHandler } from './errors/client-error';
import { deferBodyParsing } from './lifecycle/json-body';
import { McpHttp } from './mcp/mcp-http';
import { createLogger, PinoLoggerService, requestId } from './observability/logger';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { reconcileAtStart } from '@palimpsest/application/workspace-publication/recover-journal';
import { settleRunsLeftByACrash } from '@palimpsest/application/commands/crash-cleanup/crash-cleanup';
import { projectorTransport } from '@palimpsest/projector/projector';
import { configuredProjector } from '@palimpsest/projector/configured-processors';
import { auditSigner, loadOrCreateAuditKey } from '@palimpsest/projections/audit/audit-signer';
import type { ProjectorConfig } from '@palimpsest/projector/projector-config';
import { ExecutorLink } from './executors/executor-link';
import type { ExecutorLinkConfig } from './executors/executor-link-config';
import { registerExecutorMetrics } from './executors/executor-metrics';
import { ExecutorPresence } from './executors/executor-presence';
import { ExecutorRelay } from './executors/executor-relay';
import { RelayPeers } from './executors/relay-peers';
import { relayConfigFrom } from './executors/relay-config';
import { ActiveProjects } from '@palimpsest/application/relay/active-projects';

export interface RunningApi {
  url: string;
  /** The workspace root its tools work under, as given (absolute), or null when none is configured. */
  workspaceRoot: string | null;
  /** Stops accepting, closes event streams, lets in-flight requests finish (up to the grace period). */
  close(): Promise<{ drained: boolean }>;
}

/** Builds the Nest application (on Fastify) on an open, migrated store and starts listening. */
/** `projector`: the in-process projector's configuration, as the root read it (PALIMPSEST_PROJECTOR_BATCH, PALIMPSEST_NATS_URL, …); `executors`: the executor link's (docs/executors.md). */
export async function startApiServer(store: Db, config: ApiConfig, version: string, projector: ProjectorConfig, executors: ExecutorLinkConfig, replica?: OpenedReplica): Promise<RunningApi> {
  const logger = createLogger(config.logLevel, config.logFormat);
  const runtime = new ApiRuntime(store, config, logger, replica);
  const settled = await reconcileAtStart(runtime.ctx);
  if (settled.settled || settled.busy) logger.info(settled, 'workspace: interrupted publications settled at start');
  await settleRunsLeftByACrash(runtime.ctx, (line) => logger.warn(line));
  // Fastify's own request logging is off: RequestTracker writes one line per request instead.
  // It adds neither an ETag nor X-Powered-By: the ETag is the target version, set by the runner.
  const adapter = new FastifyAdapter({
    logger: false,
    genReqId: requestId,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler: clientErrorHandler(logger), // what Node's parser refuses before any request exists
    routerOptions: { maxParamLength: 1000 }, // an over-long id is answered by admission (400 invalid_target_file_id), not the router (414)
    // Node's own defaults, which Fastify changes (no request timeout at all; 72 s keep-alive):
    // a client gets 5 minutes to send a whole request, and an idle keep-alive socket 5 s.
    requestTimeout: 300_000,
    keepAliveTimeout: 5_000,
    skipMiddie: true, // no Nest or Express middleware: the gateway's own hooks are Fastify hooks
  });
  const auditKey = projector.audit ? auditSigner(loadOrCreateAuditKey(projector.audit.keyFile)).verifierKey : null;
  const presence = new ExecutorPresence();
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.register(runtime, auditKey, presence), adapter, {
    bodyParser: false, // bodies are read after authentication (JsonBodyPipe)
    bufferLogs: true,
  });
  app.useLogger(new PinoLoggerService(logger, config.logFormat === 'pretty'));
  const fastify = adapter.getInstance();
  deferBodyParsing(fastify);
  fastify.addHook('onRequest', runtime.tracker.onRequest);
  enableCors(app, config.corsOrigins);
  const mcp = new McpHttp(runtime, version);
  mcp.register(fastify);
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app, version), {
    jsonDocumentUrl: 'docs/openapi.json',
    customSiteTitle: 'Palimpsest HTTP API',
  });
  if (config.auth) await runtime.tokens.start();
  const relay = new ExecutorRelay(runtime.ctx, relayConfigFrom(process.env), runtime.logger);
  const peers = new RelayPeers(runtime.db, runtime.logger, () => relay.heldProjects(), (call) => relay.call(call));
  relay.attachPeers(peers);
  await peers.start();
  registerExecutorMetrics(runtime.metrics.registry, presence, relay);
  runtime.ctx.relay = { port: relay, active: new ActiveProjects() };
  const link = new ExecutorLink(presence, executors, {
    relay,
    db: runtime.db,
    tokens: config.auth ? runtime.tokens : null,
    logger: runtime.logger,
    draining: () => runtime.tracker.draining,
    reportError: runtime.reportError,
  });
  link.attach(fastify.server);
  // The asynchronous projections follow the log in this process too (the embedded store's owner is
  // their one leader; on PostgreSQL the leases pick one projector among all): off with PALIMPSEST_PROJECTOR=off.
  if (config.projector) {
    const onError = (e: unknown, consumer: string) => runtime.reportError(e, `projector ${consumer}`);
    app.connectMicroservice({ strategy: projectorTransport(store, configuredProjector(projector, runtime.logger, onError)) });
    await app.startAllMicroservices();
  }
  await app.listen(config.port, config.host);
  const server = app.getHttpServer() as Server;
  const { port } = server.address() as AddressInfo;
  mcp.listening(port);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { url: `http://${host}:${port}`, workspaceRoot: runtime.ctx.workspace?.path ?? null, close: () => shutdown(app, runtime, server, mcp, link) };
}

/**
 * Drain first, close after: while in-flight requests finish, the listener stays open and answers
 * anything new with 503 (a clean refusal a client can retry elsewhere), because closing it first
 * would also drop keep-alive sockets whose next request is already on the wire.
 */
async function shutdown(app: NestFastifyApplication, runtime: ApiRuntime, server: Server, mcp: McpHttp, link: ExecutorLink): Promise<{ drained: boolean }> {
  runtime.tracker.startDraining();
  await link.close('the gateway is shutting down'); // upgraded sockets are no longer the HTTP server's to close
  runtime.streams.closeAll('server shutting down; reconnect with Last-Event-ID');
  mcp.closeStreams(); // MCP tool calls in progress finish like requests; the sessions end after them
  const drained = await runtime.tracker.settle(runtime.config.shutdownGraceMs);
  await mcp.close();
  server.close();
  server.closeAllConnections();
  await runtime.tokens.stop();
  await runtime.hub.stop();
  await runtime.ctx.commands.stop().catch(() => undefined); // every command's group stopped, its kill and exit recorded
  await runtime.ctx.wakes.close(); // the last commits' wake-ups reach other processes' listeners
  await app.close();
  return { drained };
}
