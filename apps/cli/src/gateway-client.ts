import type { GatewayAddress } from '@palimpsest/api/lifecycle/gateway-address';

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

  failure(answer: GatewayAnswer): GatewayCallError {
    const detail = answer.body?.failure_detail ?? (answer.body?.error as { message?: string } | undefined)?.message ?? `HTTP ${answer.status}`;
    return new GatewayCallError(`${this.label} answered ${answer.status}: ${String(detail)}`, answer.status === 400 || answer.status === 404 ? 2 : 1);
  }
}
