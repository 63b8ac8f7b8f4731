import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { RawData, WebSocket } from 'ws';
import { describeRefusal, parseExecutorMessage, parseRelayMessage } from '@palimpsest/protocol/executor/executor-message-parser';
import type { HelloMessage, RelayMessage, ToolCallMessage, ToolResultMessage } from '@palimpsest/protocol/executor/executor-messages';
import { EXECUTOR_MIN_PROTOCOL_VERSION, EXECUTOR_PROTOCOL_VERSION } from '@palimpsest/protocol/executor/executor-protocol';
import type { AskedCalls } from './asked-calls';
import { closeReason, EXECUTOR_CLOSE, type ExecutorCloseName } from './executor-close-codes';
import type { ExecutorLinkConfig } from './executor-link-config';
import type { ExecutorPresence } from './executor-presence';
import { isAnswerOf, type ExecutorRelay } from './executor-relay';
import { DeadlinePassed, LinkLost, type RelayEndpoint } from './relay-endpoint';

interface Pending {
  tool: string;
  resolve(message: ToolResultMessage): void;
  reject(error: Error): void;
}

/** A peer that does not answer our close within this long is cut off. */
const CLOSE_GRACE_MS = 2_000;

export interface ConnectionContext {
  presence: ExecutorPresence;
  relay: ExecutorRelay;
  config: ExecutorLinkConfig;
  logger: Logger;
  /** The calls sent to each device and not answered yet, shared by the device's connections (one after another). */
  asked: AskedCalls;
  /** Closes another connection of this link (the one a new hello replaces). */
  closeOther(connectionId: string, name: ExecutorCloseName, detail: string): void;
}

export interface ConnectionAuth {
  tokenId: string | null;
  tokenName: string | null;
  /** SHA-256 of the bearer secret, matched against revocation announcements (null with --no-auth). */
  tokenHash: string | null;
}

/**
 * One executor's WebSocket: hello first, then heartbeats (each acknowledged). Anything malformed,
 * oversized or out of order closes this connection alone, with a code and reason (executor-close-codes.ts).
 */
export class ExecutorConnection implements RelayEndpoint {
  readonly id = randomUUID();
  private helloed = false;
  private readonly pending = new Map<string, Pending>();
  /** The device its hello named (calls are sent only after it). */
  private deviceId: string | null = null;
  private closed = false;
  private silence: NodeJS.Timeout;
  private heardAt = Date.now();

  constructor(
    private readonly ws: WebSocket,
    readonly auth: ConnectionAuth,
    private readonly ctx: ConnectionContext,
    private readonly remote: string,
  ) {
    this.silence = setTimeout(() => this.silent(), ctx.config.heartbeatTimeoutMs);
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.on('error', (error) => this.ctx.logger.warn({ err: error, connection: this.id, remote }, 'executor link: socket error'));
    ws.on('close', (code, reason) => {
      if (!this.closed) this.ctx.logger.info({ connection: this.id, remote, code, reason: reason.toString() }, 'executor link: closed by the executor');
      this.closed = true;
      this.forget();
    });
  }

  /** Closes with one of the documented codes; the executor leaves the registry at once. */
  close(name: ExecutorCloseName | 'going_away', detail?: string): void {
    if (this.closed) return;
    this.closed = true;
    this.forget();
    const code = name === 'going_away' ? 1001 : EXECUTOR_CLOSE[name];
    const level = name === 'going_away' ? 'info' : 'warn';
    this.ctx.logger[level]({ connection: this.id, remote: this.remote, code, reason: name, detail }, 'executor link: closing');
    this.ws.close(code, closeReason(name, detail));
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  /** Sends `shutdown`, then closes with 1001. */
  shutdown(reason: string): void {
    if (this.closed) return;
    this.sendMessage({ type: 'shutdown', reason });
    this.close('going_away', reason);
  }

  get isClosed(): boolean {
    return this.ws.readyState === this.ws.CLOSED;
  }

  get gone(): boolean {
    return this.closed;
  }

  /** A tool.call to this executor, answered by its tool.result (relay-endpoint.ts). */
  send(message: ToolCallMessage, deadline: number, signal?: AbortSignal): Promise<ToolResultMessage> {
    if (this.closed) return Promise.reject(new LinkLost('the connection is closed'));
    // What leaves is held to the same schema the executor checks it against.
    const checked = parseRelayMessage(JSON.stringify(message));
    if (!checked.ok) return Promise.reject(new Error(`a tool.call the protocol does not allow: ${describeRefusal(checked)}`));
    return new Promise<ToolResultMessage>((resolve, reject) => {
      const cancel = () => this.closed || this.sendMessage({ type: 'cancel', requestId: message.requestId });
      const timer = setTimeout(() => (cancel(), done(), reject(new DeadlinePassed('deadline'))), Math.max(0, deadline - Date.now()));
      signal?.addEventListener('abort', cancel, { once: true });
      const done = () => (clearTimeout(timer), signal?.removeEventListener('abort', cancel), this.pending.delete(message.requestId));
      this.pending.set(message.requestId, {
        tool: message.tool,
        resolve: (m) => (done(), resolve(m)),
        reject: (e) => (done(), reject(e)),
      });
      this.ctx.asked.add(message.requestId, this.deviceId!);
      this.sendMessage(message);
    });
  }

  /** The silence timer fired: what arrived while this process was busy is read first (one turn of the loop), then judged. */
  private silent(): void {
    setImmediate(() => {
      if (this.closed) return;
      const limit = this.ctx.config.heartbeatTimeoutMs;
      const quiet = Date.now() - this.heardAt;
      if (quiet < limit) this.silence = setTimeout(() => this.silent(), limit - quiet);
      else this.close('heartbeat_timeout', `nothing received for ${limit} ms`);
    });
  }

  private forget(): void {
    clearTimeout(this.silence);
    this.ctx.presence.remove(this.id);
    this.ctx.relay.offline(this);
    for (const p of [...this.pending.values()]) p.reject(new LinkLost('the executor\'s connection ended'));
  }

  private sendMessage(message: RelayMessage): void {
    this.ws.send(JSON.stringify(message));
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    this.heardAt = Date.now();
    if (isBinary) return this.close('invalid_message', 'binary frames are not part of the protocol');
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8');
    const parsed = parseExecutorMessage(text);
    if (!parsed.ok) return this.close('invalid_message', describeRefusal(parsed));
    const message = parsed.message;
    if (message.type === 'hello') return this.helloed ? this.close('out_of_order', 'a second hello') : this.hello(message);
    if (!this.helloed) return this.close('out_of_order', `${message.type} before hello`);
    switch (message.type) {
      case 'heartbeat':
        this.ctx.presence.heartbeat(this.id, Date.now());
        return this.sendMessage({ type: 'heartbeat.ack' });
      case 'presence':
        return this.ctx.presence.heartbeat(this.id, Date.now());
      case 'tool.result':
        return this.toolResult(message);
      case 'approval.answer':
        return this.close('out_of_order', `approval.answer for ${message.id}, an approval this gateway never asked`);
    }
  }

  /** A result for a call in flight on this connection; anything else closes this connection alone. */
  private toolResult(message: ToolResultMessage): void {
    const pending = this.pending.get(message.requestId);
    const asked = this.deviceId !== null && this.ctx.asked.take(message.requestId, this.deviceId);
    const late = !pending && asked;
    if (late) {
      // Its caller stopped waiting (the deadline passed, a cancel went out, or the link it was sent on dropped
      // and this is the device's next connection): the call stays in doubt on the record, and sending its key
      // again asks the executor, which answers from its own record.
      this.ctx.logger.info({ connection: this.id, request_id: message.requestId }, 'executor link: a tool.result after its caller stopped waiting; left to the next send of its key');
      return;
    }
    if (!pending) return this.close('out_of_order', `tool.result for ${message.requestId}, a call this gateway never sent`);
    if (message.result.ok && !isAnswerOf(pending.tool, message.result.value)) {
      return this.close('invalid_message', `tool.result for ${message.requestId}: the value is not an answer of ${pending.tool}`);
    }
    pending.resolve(message);
  }

  private hello(message: HelloMessage): void {
    const version = message.protocolVersion;
    if (version < EXECUTOR_MIN_PROTOCOL_VERSION || version > EXECUTOR_PROTOCOL_VERSION) {
      return this.close('unsupported_protocol_version', `hello speaks ${version}; this gateway speaks ${EXECUTOR_MIN_PROTOCOL_VERSION} to ${EXECUTOR_PROTOCOL_VERSION}`);
    }
    const repeated = firstRepeated(message.projects.map((p) => p.id)) ?? firstRepeated(message.projects.map((p) => p.slug));
    if (repeated !== null) return this.close('invalid_hello', `project ${JSON.stringify(repeated)} is named twice`);
    const holder = { deviceId: message.deviceId, tokenId: this.auth.tokenId, tokenHash: this.auth.tokenHash };
    const taken = this.ctx.relay.heldElsewhere(holder, message.projects);
    if (taken !== null) return this.close('invalid_hello', taken);
    const existing = this.ctx.presence.byDevice(message.deviceId);
    if (existing && existing.tokenId !== this.auth.tokenId) return this.close('device_in_use', `device ${message.deviceId} is connected under another token`);
    if (existing) this.ctx.closeOther(existing.connectionId, 'replaced', 'the same device connected again');
    this.deviceId = message.deviceId;
    const now = Date.now();
    this.ctx.presence.add({
      connectionId: this.id,
      deviceId: message.deviceId,
      tokenId: this.auth.tokenId,
      cliVersion: message.cliVersion,
      platform: message.platform,
      protocolVersion: version,
      projects: message.projects,
      connectedAt: now,
      lastHeartbeatAt: null,
    });
    this.helloed = true;
    this.ctx.relay.online(this, holder, message.projects);
    this.sendMessage({ type: 'hello.ack', serverTime: now, heartbeatIntervalMs: this.ctx.config.heartbeatIntervalMs });
    const projects = message.projects.map((p) => p.slug);
    this.ctx.logger.info({ connection: this.id, remote: this.remote, device: message.deviceId, token: this.auth.tokenName, projects }, 'executor link: executor connected');
  }
}

function firstRepeated(values: string[]): string | null {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) return v;
    seen.add(v);
  }
  return null;
}
