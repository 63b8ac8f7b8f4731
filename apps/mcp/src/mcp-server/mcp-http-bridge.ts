import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AsciiStdioServerTransport } from './ascii-stdio-transport';

export interface McpBridgeOptions {
  /** The gateway's /mcp endpoint. */
  url: URL;
  /** null: the gateway runs without authentication (--no-auth). */
  token: string | null;
  /** Narrows what the gateway serves this client (`read-only`); never widens the token. */
  profile?: string;
  /** Lines for the operator (stderr); stdout carries protocol lines only. */
  say: (line: string) => void;
}

export interface McpBridge {
  close(): Promise<void>;
  /** Settles when either side closes. */
  readonly closed: Promise<void>;
}

/** JSON-RPC's implementation-defined server error range; the SDK uses the same code for connection loss. */
const GATEWAY_UNREACHABLE = -32000;

/**
 * `palimpsest mcp` while a gateway owns the embedded store: the stdio client talks to the gateway's
 * /mcp through this relay, so it gets the same tools, results and notifications as an HTTP client.
 * A request the gateway cannot take is answered with a JSON-RPC error that says why, instead of the
 * client seeing only a closed connection.
 */
export async function bridgeStdioToHttp(opts: McpBridgeOptions): Promise<McpBridge> {
  const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
  if (opts.profile) headers['x-palimpsest-profile'] = opts.profile;
  const remote = new StreamableHTTPClientTransport(opts.url, { requestInit: { headers } });
  const local = new AsciiStdioServerTransport();
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await remote.terminateSession().catch(() => undefined);
      await Promise.allSettled([remote.close(), local.close()]);
      finish();
    })());

  local.onmessage = (message) => void forward(message);
  remote.onmessage = (message) => void local.send(message);
  remote.onerror = (error) => opts.say(`palimpsest mcp: gateway ${opts.url.origin}: ${error.message}`);
  local.onclose = () => void close();
  remote.onclose = () => void close();

  async function forward(message: JSONRPCMessage): Promise<void> {
    try {
      await remote.send(message);
    } catch (error) {
      if (!isJSONRPCRequest(message)) return opts.say(`palimpsest mcp: could not relay a notification: ${(error as Error).message}`);
      await local.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: GATEWAY_UNREACHABLE, message: `the gateway at ${opts.url.origin} did not take the request: ${(error as Error).message}` },
      });
    }
  }

  await remote.start();
  await local.start();
  return { close, closed };
}
