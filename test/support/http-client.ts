export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (for malformed or oversized bodies). */
  raw?: string;
  headers?: Record<string, string>;
  /** Overrides the client's token; null sends no Authorization header. */
  token?: string | null;
  query?: Record<string, string | number | boolean>;
}

/** A small fetch wrapper: bearer token, JSON in and out, every answer returned (never thrown). */
export class HttpClient {
  constructor(
    readonly base: string,
    readonly token: string | null = null,
  ) {}

  withToken(token: string | null): HttpClient {
    return new HttpClient(this.base, token);
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<HttpAnswer> {
    const url = new URL(path, this.base);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? this.token : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get(path: string, query?: RequestOptions['query'], opts: RequestOptions = {}): Promise<HttpAnswer> {
    return this.request('GET', path, { ...opts, query });
  }

  post(path: string, body?: unknown, opts: RequestOptions = {}): Promise<HttpAnswer> {
    return this.request('POST', path, { ...opts, body });
  }
}

export const H0 = 'b22ebf774cb2d9b12dc23d13ac860581d994ab579f4fb470b6f79d0b43a15ff2';
