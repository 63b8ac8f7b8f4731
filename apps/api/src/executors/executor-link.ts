import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { EXECUTOR_MAX_MESSAGE_BYTES } from '@palimpsest/protocol/executor/executor-protocol';
import type { Db } from '@palimpsest/store/db';
import { storeFailureOf } from '@palimpsest/store/errors';
import { hashSecret, isTokenActive } from '../auth/api-tokens';
import { scopeRefusal, type TokenVerifier } from '../auth/token-verifier';
import { ApiError, gatewayError } from '../errors/api-error';
import { AskedCalls } from './asked-calls';
import { ExecutorConnection, type ConnectionAuth } from './executor-connection';
import { EXECUTOR_CONNECT_PATH, type ExecutorLinkConfig } from './executor-link-config';
import type { ExecutorPresence } from './executor-presence';
import type { ExecutorRelay } from './executor-relay';

export interface ExecutorLinkDeps {
  db: Db;
  /** null with --no-auth: executors connect without a token. */
  tokens: TokenVerifier | null;
  logger: Logger;
  /** The relay of tool calls to the executors' projects. */
  relay: ExecutorRelay;
  /** True once the gateway drains: new connections are refused with 503. */
  draining(): boolean;
  reportError(error: unknown, context: string): void;
}

/**
 * The gateway's end of the executor link: WebSocket upgrades at EXECUTOR_CONNECT_PATH, authenticated by
 * the upgrade request's bearer token (which must carry the executor scope) before any frame is read.
 * Every other upgrade is answered 404. Revocations announced for a connected executor's token close it.
 */
export class ExecutorLink {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: EXECUTOR_MAX_MESSAGE_BYTES });
  private readonly connections = new Map<string, ExecutorConnection>();
  private readonly asked = new AskedCalls();
  private unlisten: (() => void) | undefined;

  constructor(
    private readonly presence: ExecutorPresence,
    private readonly config: ExecutorLinkConfig,
    private readonly deps: ExecutorLinkDeps,
  ) {}

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      this.upgrade(req, socket, head).catch((error) => {
        // The token lookup needs the database: while it is away the executor is told to come back (503), which it does.
        const failure = storeFailureOf(error);
        if (!failure) this.deps.reportError(error, 'executor link upgrade');
        refuse(socket, failure
          ? gatewayError(503, 'unavailable', failure.reason, 'The database does not answer; connect again shortly.', { headers: { 'Retry-After': '2' } })
          : gatewayError(500, 'internal', 'internal_error', 'The executor link could not be opened.'));
      });
    });
    this.unlisten = this.deps.tokens?.onRevocation((hash) => this.revoked(hash));
  }

  /** Tells every executor the gateway stops (`shutdown`, then close 1001) and waits up to `graceMs` for them to go. */
  async close(reason: string, graceMs = 2_000): Promise<void> {
    this.unlisten?.();
    for (const connection of this.connections.values()) connection.shutdown(reason);
    const deadline = Date.now() + graceMs;
    while ([...this.connections.values()].some((c) => !c.isClosed) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    this.wss.close();
    await this.deps.relay.close();
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    if (path !== EXECUTOR_CONNECT_PATH) {
      return refuse(socket, gatewayError(404, 'not_found', 'route_not_found', `No WebSocket endpoint at ${path}; executors connect to ${EXECUTOR_CONNECT_PATH}.`));
    }
    if (this.deps.draining()) {
      return refuse(socket, gatewayError(503, 'unavailable', 'shutting_down', 'The gateway is shutting down; reconnect after it restarts.'));
    }
    const auth = await this.authenticate(req).catch((error: unknown) => {
      if (error instanceof ApiError) return error;
      throw error;
    });
    if (auth instanceof ApiError) return refuse(socket, auth);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.open(ws, auth, `${req.socket.remoteAddress}:${req.socket.remotePort}`));
  }

  private async authenticate(req: IncomingMessage): Promise<ConnectionAuth> {
    if (!this.deps.tokens) return { tokenId: null, tokenName: null, tokenHash: null };
    const principal = await this.deps.tokens.verify(req.headers.authorization);
    if (!principal.scopes.includes('executor')) throw scopeRefusal(principal, 'executor');
    const secret = /^Bearer +(\S+) *$/i.exec(req.headers.authorization!)![1]!;
    return { tokenId: principal.token_id, tokenName: principal.name, tokenHash: hashSecret(secret) };
  }

  private open(ws: WebSocket, auth: ConnectionAuth, remote: string): void {
    const connection = new ExecutorConnection(ws, auth, {
      presence: this.presence,
      relay: this.deps.relay,
      config: this.config,
      logger: this.deps.logger,
      asked: this.asked,
      closeOther: (id, name, detail) => this.connections.get(id)?.close(name, detail),
    }, remote);
    this.connections.set(connection.id, connection);
    ws.on('close', () => this.connections.delete(connection.id));
    // A revocation announced between the token check and now reached no connection: look once more.
    if (auth.tokenHash) void this.closeIfRevoked(connection, auth.tokenHash);
  }

  /** A revoked token's hash closes its connections; null (announcements may have been missed) re-checks every one. */
  private revoked(hash: string | null): void {
    for (const connection of this.connections.values()) {
      const held = connection.auth.tokenHash;
      if (!held) continue;
      if (hash === null) void this.closeIfRevoked(connection, held);
      else if (held === hash) connection.close('token_revoked', 'the token was revoked');
    }
    // Its connections are closed by now: the projects they held may be announced under another token.
    if (hash !== null) this.deps.relay.release(hash);
  }

  private async closeIfRevoked(connection: ExecutorConnection, hash: string): Promise<void> {
    try {
      if (!(await isTokenActive(this.deps.db, hash))) connection.close('token_revoked', 'the token was revoked');
    } catch (error) {
      this.deps.reportError(error, 'executor link token re-check');
    }
  }
}

/** An HTTP answer instead of the upgrade, in the gateway's error envelope, then the socket is closed. */
function refuse(socket: Duplex, error: ApiError): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(error.body);
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...error.headers,
  };
  const head = [`HTTP/1.1 ${error.httpStatus} ${STATUS_CODES[error.httpStatus] ?? ''}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
