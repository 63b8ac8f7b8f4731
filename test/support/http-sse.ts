export type SseItem = { kind: 'event'; id: string | null; event: string | null; data: string } | { kind: 'comment'; text: string } | { kind: 'retry'; ms: number };

/**
 * A minimal Server-Sent Events reader over fetch, written against the wire format itself (so the test
 * sees exactly the fields, comments and boundaries the gateway sends).
 */
export class SseReader {
  private buffer = '';
  private readonly items: SseItem[] = [];
  private fields: { id: string | null; event: string | null; data: string[] } = { id: null, event: null, data: [] };
  private ended = false;
  private readonly decoder = new TextDecoder();

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly reader: ReadableStreamDefaultReader<Uint8Array> | null,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, opts: { token?: string | null; lastEventId?: string } = {}): Promise<SseReader> {
    const abort = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
    const res = await fetch(url, { headers, signal: abort.signal });
    return new SseReader(res.status, res.headers, res.body?.getReader() ?? null, abort);
  }

  /** The next item, or null once the server ended the stream. Throws after timeoutMs. */
  async next(timeoutMs = 10_000): Promise<SseItem | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.items.length === 0) {
      if (this.ended || !this.reader) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('SSE: timed out waiting for the next item');
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('SSE: timed out waiting for the next item')), left))),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) this.ended = true;
      else this.feed(this.decoder.decode(chunk.value, { stream: true }));
    }
    return this.items.shift()!;
  }

  /** Next event, skipping comments (heartbeats do not extend the deadline); null at the end of the stream. */
  async nextEvent(timeoutMs = 10_000): Promise<Extract<SseItem, { kind: 'event' }> | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const item = await this.next(Math.max(1, deadline - Date.now()));
      if (item === null || item.kind === 'event') return item;
    }
  }

  close(): void {
    this.abort.abort();
  }

  private feed(text: string): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + (this.buffer.startsWith('\r\n', newline) ? 2 : 1));
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.fields.data.length) this.items.push({ kind: 'event', id: this.fields.id, event: this.fields.event, data: this.fields.data.join('\n') });
      this.fields = { id: null, event: null, data: [] };
      return;
    }
    if (line.startsWith(':')) {
      this.items.push({ kind: 'comment', text: line.slice(1).trim() });
      return;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'id') this.fields.id = value;
    else if (name === 'event') this.fields.event = value;
    else if (name === 'data') this.fields.data.push(value);
    else if (name === 'retry') this.items.push({ kind: 'retry', ms: Number(value) });
  }
}
