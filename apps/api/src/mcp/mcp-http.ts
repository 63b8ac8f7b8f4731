import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '@palimpsest/mcp/mcp-server/mcp-server';
import type { ResponseMode } from '@palimpsest/mcp/mcp-server/response-mode';
import { findOperation, type OperationName } from '@palimpsest/protocol/catalog/catalog';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import type { ApiRuntime } from '../api-runtime';
import type { AuthenticatedRequest } from '../auth/token-verifier';
import { ApiError } from '../errors/api-error';
import { readJsonBody } from '../lifecycle/json-body';
import { accessWithProfile, PROFILE_HEADER, type McpAccess } from './mcp-access';
import { BoundedEventStore } from './mcp-event-store';
import { originAllowed } from './mcp-origin';
import { methodNotAllowed, originRefusal, sendJson, sendRefusal, sessionNotFound, sessionOfAnotherToken, sessionRequired, tooManySessions } from './mcp-replies';
import { SessionRegistry, type SessionEntry } from './mcp-sessions';
import { SessionNotifier } from './mcp-target-changes';
import { observeToolCalls } from './mcp-tool-calls';

interface McpSession {
  transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * MCP over Streamable HTTP at /mcp (the SDK's server transport, handed Fastify's raw request and
 * response): the catalog's tools as stdio serves them (createMcpServer), a bearer token's scopes and
 * policy deciding what is listed and callable. Stateful by default — sessions bound to their token,
 * notifications on GET with Last-Event-ID replay, DELETE to end, idle expiry, a cap; stateless with
 * PALIMPSEST_MCP_STATELESS=1 (a fresh server per POST, for load-balanced replicas).
 */
export class McpHttp {
  private readonly sessions: SessionRegistry<McpSession>;
  private readonly mode: ResponseMode;
  private readonly sweeper: NodeJS.Timeout;
  private readonly refusals: Counter<'reason'>;
  private port = 0;

  constructor(
    private readonly runtime: ApiRuntime,
    private readonly version: string,
  ) {
    const { mcp } = runtime.config;
    this.sessions = new SessionRegistry({ maxSessions: mcp.maxSessions, idleMs: mcp.sessionIdleMs });
    this.mode = runtime.config.mcpResponseMode;
    this.sweeper = setInterval(() => void this.sessions.sweep().catch((e) => runtime.reportError(e, 'mcp session expiry')), Math.min(mcp.sessionIdleMs, 60_000) / 2);
    this.sweeper.unref();
    const sessions = this.sessions;
    new Gauge({ name: 'palimpsest_mcp_sessions', help: 'MCP sessions open on /mcp', registers: [runtime.metrics.registry], collect() { this.set(sessions.size); } });
    this.refusals = new Counter({ name: 'palimpsest_mcp_refusals_total', help: '/mcp requests refused before the MCP transport, by reason', labelNames: ['reason'], registers: [runtime.metrics.registry] });
  }

  register(fastify: FastifyInstance): void {
    fastify.route({ method: ['GET', 'POST', 'DELETE'], url: '/mcp', handler: this.handle });
  }

  /** The port the gateway listens on: its own loopback origins carry it. */
  listening(port: number): void {
    this.port = port;
  }

  /** Shutdown, first step: the sessions' notification streams end, so only calls in progress hold the drain up. */
  closeStreams(): void {
    for (const entry of this.sessions.all()) entry.value.transport.closeStandaloneSSEStream();
  }

  /** Shutdown, last step: every session ends; a client initializes again after the restart. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.sessions.closeAll();
  }

  private readonly handle = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.hijack(); // the SDK transport writes the raw response (SSE streams included)
    const { raw: req } = request;
    const res = reply.raw;
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value); // CORS, set by hooks
    try {
      const origin = header(req, 'origin');
      if (!originAllowed(origin, this.port, this.runtime.config.corsOrigins)) throw originRefusal(origin!);
      const principal = this.runtime.config.auth ? await this.runtime.tokens.verify(req.headers.authorization) : undefined;
      (request as AuthenticatedRequest).principal = principal;
      const access = accessWithProfile(principal, header(req, PROFILE_HEADER), this.runtime.ctx.candidates.policyFile);
      if (this.runtime.config.mcp.stateless) await this.stateless(req, res, access);
      else await this.stateful(req, res, access);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        this.runtime.reportError(error, 'mcp', request.id);
        if (!res.headersSent) sendJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: `Internal error; report it with the request id ${request.id}.` }, id: null });
        else res.end();
        return;
      }
      this.refusals.inc({ reason: String((error.body.error as { reason?: unknown } | undefined)?.reason ?? 'unknown') });
      sendRefusal(res, error, request.id, error.httpStatus === 404 ? -32001 : -32000);
    }
  };

  private async stateful(req: IncomingMessage, res: ServerResponse, access: McpAccess): Promise<void> {
    const sessionId = header(req, 'mcp-session-id');
    const body = req.method === 'POST' ? await readJsonBody(req, this.runtime.config.bodyLimitBytes) : undefined;
    if (sessionId === undefined) {
      if (req.method !== 'POST' || !isInitializeRequest(body)) throw sessionRequired();
      const entry = (await this.sessions.hasRoom()) ? await this.open(access) : null;
      if (!entry) throw tooManySessions(this.runtime.config.mcp.maxSessions);
      await this.serve(entry, req, res, body);
      if (entry.value.transport.sessionId === undefined) await entry.value.close(); // the initialize was refused
      return;
    }
    const found = this.sessions.lookup(sessionId, access.owner);
    if (found.kind === 'unknown') throw sessionNotFound();
    if (found.kind === 'foreign') throw sessionOfAnotherToken();
    await this.serve(found.entry, req, res, body);
  }

  private async serve(entry: SessionEntry<McpSession>, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    res.once('close', this.sessions.use(entry));
    await entry.value.transport.handleRequest(req, res, body);
  }

  /** A new session, or null at the cap. */
  private async open(access: McpAccess): Promise<SessionEntry<McpSession> | null> {
    const id = randomUUID();
    const server = this.server(access, id); // the session's edits and command runs record its id
    const notifier = new SessionNotifier(server, this.runtime.hub, (e) => this.runtime.reportError(e, 'mcp notification'));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      eventStore: new BoundedEventStore(),
      onsessioninitialized: () => this.runtime.logger.info({ mcp_session: id, token_id: access.owner }, 'mcp session opened'),
    });
    const entry = this.sessions.add(id, access.owner, { transport, close: () => server.close() });
    if (!entry) return null;
    await server.connect(transport);
    this.observe(transport, (result) => notifier.answered(result));
    const ended = transport.onclose;
    transport.onclose = () => {
      notifier.stop();
      this.sessions.remove(id);
      if (transport.sessionId !== undefined) this.runtime.logger.info({ mcp_session: id }, 'mcp session closed');
      ended?.();
    };
    return entry;
  }

  private async stateless(req: IncomingMessage, res: ServerResponse, access: McpAccess): Promise<void> {
    if (req.method !== 'POST') return methodNotAllowed(res);
    const body = await readJsonBody(req, this.runtime.config.bodyLimitBytes);
    const server = this.server(access);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    this.observe(transport);
    res.once('close', () => void server.close());
    await transport.handleRequest(req, res, body);
  }

  /** A server for one session (its Mcp-Session-Id is the correlation id), or for one stateless request (a fresh id). */
  private server(access: McpAccess, sessionId?: string): Server {
    const { profile, policy } = access;
    const { progressMs } = this.runtime.config.mcp;
    return createMcpServer(this.runtime.ctx, { profile, policy, mode: this.mode, version: this.version, progressMs, executors: true, ...(sessionId ? { correlationId: sessionId } : {}) });
  }

  /** Operation slots and metrics as for the HTTP routes. */
  private observe(transport: StreamableHTTPServerTransport, answered?: (result: Record<string, unknown> | null) => void): void {
    const { limiter, metrics } = this.runtime;
    observeToolCalls(transport, {
      admit: () => limiter.acquire(),
      done: (tool, result, seconds) => {
        if (findOperation(tool)) metrics.operationDone(tool as OperationName, result, seconds);
        answered?.(result);
      },
    });
  }
}
