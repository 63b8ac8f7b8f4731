import { connect } from 'node:net';

export interface RawAnswer {
  /** e.g. "HTTP/1.1 400 Bad Request" */
  statusLine: string;
  status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection after this answer. */
  closed: boolean;
}

function parseAnswer(raw: Buffer, closed: boolean): RawAnswer | null {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? NaN);
  const bodyBytes = raw.subarray(end + 4);
  if (Number.isFinite(length) ? bodyBytes.length < length : !closed) return null;
  const body = (Number.isFinite(length) ? bodyBytes.subarray(0, length) : bodyBytes).toString('utf8');
  return { statusLine: statusLine!, status: Number(statusLine!.split(' ')[1]), headers, body, closed };
}

/**
 * Sends bytes exactly as given over a plain TCP socket (no client library to fix them up) and reads
 * the first answer; `closed` tells whether the server then closed the connection.
 */
export function rawRequest(baseUrl: string, bytes: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    let received = Buffer.alloc(0);
    let answer: RawAnswer | null = null;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer in ${timeoutMs} ms; received ${JSON.stringify(received.toString('latin1').slice(0, 300))}`));
    }, timeoutMs);
    const finish = (closed: boolean) => {
      answer = parseAnswer(received, closed);
      clearTimeout(timer);
      socket.destroy();
      if (answer) resolve(answer);
      else reject(new Error(`connection closed without a complete answer: ${JSON.stringify(received.toString('latin1').slice(0, 300))}`));
    };
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      // With Connection: close, wait for the close itself, so `closed` is observed, not assumed.
      const complete = parseAnswer(received, false);
      if (complete && complete.headers.connection?.toLowerCase() !== 'close') finish(false);
    });
    socket.on('error', () => undefined); // a reset after the answer still leaves the answer to read
    socket.on('close', () => {
      if (!answer) finish(true);
    });
  });
}
