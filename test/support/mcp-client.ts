import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI_BIN, REPO_ROOT, isolatedStore } from './cli-process';

export interface McpSession {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; result: Record<string, any>; text: string }>;
  close(): Promise<void>;
}

/** The official SDK client over real stdio, spawning `palimpsest mcp` (in `cwd`, the repository by default). */
export async function connectMcp(env: NodeJS.ProcessEnv, args: string[] = [], cwd: string = REPO_ROOT): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', ...args],
    cwd,
    env: { ...(process.env as Record<string, string>), ...(env as Record<string, string>) },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'palimpsest-e2e', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(name, callArgs) {
      const r = (await client.callTool({ name, arguments: callArgs })) as any;
      const text = r.content[0].text as string;
      expect(JSON.parse(text)).toEqual(r.structuredContent);
      return { isError: r.isError === true, result: r.structuredContent, text };
    },
    close: () => client.close(),
  };
}

/** An isolated store and `palimpsest mcp` on it for the whole describe block, closed after it. */
export function useMcp(): { readonly store: Awaited<ReturnType<typeof isolatedStore>>; readonly mcp: McpSession } {
  let store: Awaited<ReturnType<typeof isolatedStore>> | undefined;
  let mcp: McpSession | undefined;
  beforeAll(async () => {
    store = await isolatedStore();
    mcp = await connectMcp(store.env);
  });
  afterAll(async () => {
    await mcp?.close();
    await store?.dispose();
  });
  return {
    get store() {
      return store!;
    },
    get mcp() {
      return mcp!;
    },
  };
}

/** A tool call's structured answer (the operation's outcome), over any connected SDK client. */
export async function structuredAnswer(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args }, CallToolResultSchema);
  if (!result.structuredContent) throw new Error(`${name} answered without structuredContent`);
  return result.structuredContent as Record<string, unknown>;
}

/**
 * The official SDK client over Streamable HTTP (the gateway's /mcp), with a bearer token. Its close()
 * also ends the session (DELETE), as a well-behaved client does: the SDK's own close() only drops the
 * connection, and the sessions left behind would count against the cap until they idle out.
 */
export async function connectHttp(url: string, token: string | null): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers } });
  const client = new Client({ name: 'palimpsest-e2e-http', version: '1.0.0' });
  await client.connect(transport);
  const close = client.close.bind(client);
  client.close = async () => {
    await transport.terminateSession().catch(() => undefined);
    await close();
  };
  return { client, transport };
}
