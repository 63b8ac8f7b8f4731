import type { GatewayAddress } from '@palimpsest/api/lifecycle/gateway-address';
import { answerErrors, isAnswerOf, isOutcomeOf } from '@palimpsest/protocol/answer-guard';
import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import type { Params, Result } from '@palimpsest/protocol/catalog/operation-types';
import type { Outcome } from '@palimpsest/protocol/outcome';

/** How `palimpsest call` and `serve` run an operation through the gateway: under the read-only profile, or a named one. */
export interface DispatchAs {
  read_only?: boolean;
  profile?: string;
  /** The session the call belongs to (the audit reads group by it). */
  correlation_id?: string;
}

export interface GatewayAnswer {
  status: number;
  body: Record<string, unknown> | null;
}

/** A failure of the work (exit 1) or, for a 400/404 answer, of the request (exit 2), in one line. */
export class GatewayCallError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/**
 * The HTTP side of a CLI command that goes through the gateway holding the embedded store: its
 * published address and credential, JSON in and out.
 */
export class GatewayClient {
  constructor(readonly address: GatewayAddress) {}

  get label(): string {
    return `the gateway (pid ${this.address.pid}, ${this.address.url})`;
  }

  async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<GatewayAnswer> {
    const headers: Record<string, string> = {};
    if (this.address.token) headers.authorization = `Bearer ${this.address.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.address.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new GatewayCallError(`${this.label} stopped answering (${cause}); run the command again once it is back, or stop it`, 1);
    }
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  }

  /** The answer's body when it is a success; anything else is thrown as a one-line error. */
  async send<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const answer = await this.request(method, path, body);
    if (answer.status < 300) return answer.body as T;
    throw this.failure(answer);
  }

  /**
   * One catalog operation, run by the gateway as `palimpsest call` runs it here: its answer, read as the
   * operation's typed Result once it validated against the operation's published answer schema.
   */
  async dispatch<N extends OperationName>(operation: N, args: Params<N>, as: DispatchAs = {}): Promise<Result<N>> {
    const body = await this.dispatched(operation, args, as);
    if (isAnswerOf(operation, body)) return body;
    throw this.malformed(operation, body);
  }

  /** The same for a name and arguments off the command line, unchecked until the gateway answers (the name may be no operation). */
  async dispatchRequest(operation: string, args: unknown, as: DispatchAs = {}): Promise<Outcome> {
    const body = await this.dispatched(operation, args, as);
    if (isOutcomeOf(operation, body)) return body;
    throw this.malformed(operation, body);
  }

  private async dispatched(operation: string, args: unknown, as: DispatchAs): Promise<unknown> {
    const answer = await this.request('POST', '/v1/admin/dispatch', { operation, args, ...as });
    if (answer.status < 300) return answer.body;
    throw this.failure(answer);
  }

  /** An answer that is not one of the operation's: a gateway of another version, or a bug; never read as typed. */
  private malformed(operation: string, body: unknown): GatewayCallError {
    return new GatewayCallError(`${this.label} answered ${operation} with what is not one of its answers (${answerErrors(operation, body)})`, 1);
  }

  failure(answer: GatewayAnswer): GatewayCallError {
    const detail = answer.body?.failure_detail ?? (answer.body?.error as { message?: string } | undefined)?.message ?? `HTTP ${answer.status}`;
    return new GatewayCallError(`${this.label} answered ${answer.status}: ${String(detail)}`, answer.status === 400 || answer.status === 404 ? 2 : 1);
  }
}
