import WebSocket from 'ws';
import { describeRefusal, parseRelayMessage } from '@palimpsest/protocol/executor/executor-message-parser';
import type { ExecutorMessage, HelloMessage, RelayMessage, ToolCallMessage, ToolResultMessage } from '@palimpsest/protocol/executor/executor-messages';
import { EXECUTOR_MAX_MESSAGE_BYTES } from '@palimpsest/protocol/executor/executor-protocol';

const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
/** The gateway is taken for gone after this many heartbeat intervals without a message from it (the protocol's 30 s / 90 s). */
const SILENT_INTERVALS = 3;
/** Close codes after which connecting again would only be refused again (executor-close-codes.ts on the gateway). */
const FINAL_CLOSES = new Set([4400, 4401, 4402, 4409, 4422, 4426]);
/** Upgrade answers likewise final: no valid token, a token without the executor scope, no such endpoint. */
const FINAL_STATUSES = new Set([400, 401, 403, 404]);

export type LinkEnd = { final: false; why: string } | { final: true; why: string };

/** What the executor does with the gateway's calls (connect-executor.ts). */
export interface ToolPerformer {
  perform(message: ToolCallMessage): Promise<ToolResultMessage>;
  cancel(requestId: string): void;
}

/**
 * The executor's end of the link: connect, hello, heartbeat at the interval hello.ack gives, and when the
 * link drops connect again after 1 s, doubling to 30 s (back to 1 s once a hello is acknowledged).
 * Stops for good on stop(), or when the gateway refuses in a way retrying cannot change.
 */
export class ExecutorClient {
  private socket: WebSocket | undefined;
  private stopping = false;
  private wakeUp: (() => void) | undefined;

  constructor(
    private readonly url: string,
    private readonly token: string | null,
    private readonly hello: HelloMessage,
    private readonly log: (line: string) => void,
    private readonly performer: ToolPerformer,
  ) {}

  /** Resolves when stopped (null) or refused for good (the reason). */
  async run(): Promise<string | null> {
    let backoff = FIRST_BACKOFF_MS;
    while (!this.stopping) {
      const end = await this.connectOnce(() => (backoff = FIRST_BACKOFF_MS));
      if (this.stopping) break;
      if (end.final) return end.why;
      this.log(`link lost (${end.why}); connecting again in ${backoff / 1000} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff);
        this.wakeUp = () => (clearTimeout(timer), resolve());
      });
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
    return null;
  }

  /** Closes the link (1000) and ends run(). */
  stop(): void {
    this.stopping = true;
    this.wakeUp?.();
    this.socket?.close(1000, 'executor stopping');
    setTimeout(() => this.socket?.terminate(), 2_000).unref();
  }

  private connectOnce(acknowledged: () => void): Promise<LinkEnd> {
    return new Promise((resolve) => {
      const headers = this.token ? { Authorization: `Bearer ${this.token}` } : undefined;
      const ws = new WebSocket(this.url, { headers, maxPayload: EXECUTOR_MAX_MESSAGE_BYTES, handshakeTimeout: 10_000 });
      this.socket = ws;
      let heartbeat: NodeJS.Timeout | undefined;
      let silence: NodeJS.Timeout | undefined;
      let heardAt = Date.now();
      let end: LinkEnd = { final: false, why: 'connection closed' };
      const send = (message: ExecutorMessage) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(message));
      const refuse = (why: string, final: boolean) => {
        end = { final, why };
        ws.close(4400, why.slice(0, 120));
      };
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => {
          const detail = /"failure_detail":"((?:[^"\\]|\\.)*)"/.exec(body)?.[1] ?? '';
          end = { final: FINAL_STATUSES.has(res.statusCode ?? 0), why: `the gateway answered ${res.statusCode}${detail ? `: ${JSON.parse(`"${detail}"`)}` : ''}` };
          ws.terminate();
        });
      });
      ws.on('open', () => send(this.hello));
      ws.on('message', (data, isBinary) => {
        if (isBinary) return refuse('the gateway sent a binary frame', false);
        const parsed = parseRelayMessage(data.toString());
        if (!parsed.ok) return refuse(`the gateway sent an invalid message: ${describeRefusal(parsed)}`, false);
        const message: RelayMessage = parsed.message;
        if (message.type === 'hello.ack') {
          acknowledged();
          const every = message.heartbeatIntervalMs;
          this.log(`connected to ${this.url} as ${this.hello.deviceId}, projects ${this.hello.projects.map((p) => p.slug).join(', ')} (heartbeat every ${every} ms)`);
          clearInterval(heartbeat);
          heartbeat = setInterval(() => send({ type: 'heartbeat', at: Date.now() }), every);
          const limit = SILENT_INTERVALS * every;
          const check = () => {
            // Fired after this process was busy: what arrived meanwhile is read first (one turn of the loop), then judged.
            setImmediate(() => {
              const quiet = Date.now() - heardAt;
              if (quiet < limit) return void (silence = setTimeout(check, limit - quiet));
              end = { final: false, why: `nothing from the gateway for ${limit} ms` };
              ws.terminate(); // a gateway that says nothing would not answer a close either
            });
          };
          clearTimeout(silence);
          silence = setTimeout(check, limit);
        }
        heardAt = Date.now();
        this.answer(message, send);
      });
      ws.on('error', (error) => (end = { ...end, why: end.why === 'connection closed' ? error.message : end.why }));
      ws.on('close', (code, reason) => {
        clearInterval(heartbeat);
        clearTimeout(silence);
        const said = reason.toString();
        if (code !== 1006 && code !== 1005 && !end.why.startsWith('the gateway answered')) {
          end = { final: FINAL_CLOSES.has(code), why: `closed ${code}${said ? `: ${said}` : ''}` };
        }
        resolve(end);
      });
    });
  }

  /**
   * A tool.call is performed (once per request id: a call sent again after a lost link is answered from
   * the record) and answered on whatever link is up when it ends; this executor asks no person, so an
   * approval.request is declined.
   */
  private answer(message: RelayMessage, send: (m: ExecutorMessage) => void): void {
    if (message.type === 'shutdown') this.log(`the gateway is stopping: ${message.reason}`);
    if (message.type === 'tool.call') {
      this.performer.perform(message).then(
        (result) => this.sendNow(result),
        (error: unknown) => {
          this.log(`${message.tool} ${message.requestId} failed: ${error instanceof Error ? error.message : String(error)}`);
          this.sendNow({ type: 'tool.result', requestId: message.requestId, durationMs: 0, result: { ok: false, error: { code: 'INTERNAL_ERROR', message: 'the executor failed to perform the call; see its log' } } });
        },
      );
    }
    if (message.type === 'cancel') this.performer.cancel(message.requestId);
    if (message.type === 'approval.request') send({ type: 'approval.answer', id: message.id, approved: false });
  }

  /** On the link that is up now (a result outliving its link goes out on the next, if the gateway asks again it is answered from the record). */
  private sendNow(message: ExecutorMessage): void {
    const ws = this.socket;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }
}
