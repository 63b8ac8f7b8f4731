import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { servedReadOnly } from '@palimpsest/protocol/catalog/operation-spec';
import { PROTOCOL_VERSION } from '@palimpsest/protocol/protocol-methods/protocol-methods';
import { REPO_ROOT, isolatedStore } from '../support/cli-process';
import { connectMcp, type McpSession } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`the protocol's discovery as MCP resources on palimpsest mcp --profile read-only (${backend})`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let mcp: McpSession;
  const read = async (uri: string) => (await mcp.client.readResource({ uri })).contents[0] as { uri: string; mimeType: string; text: string };

  beforeAll(async () => {
    store = await isolatedStore();
    mcp = await connectMcp(store.env, ['--profile', 'read-only']);
  });
  afterAll(async () => {
    await mcp.close();
    await store.dispose();
  });

  it('lists the discovery documents and every generated client file', async () => {
    const { resources } = await mcp.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining([
      'palimpsest://protocol/capabilities',
      'palimpsest://protocol/schemas',
      'palimpsest://protocol/instructions',
      'palimpsest://query/catalog',
      'palimpsest://clients/python/palimpsest_client.py',
      'palimpsest://clients/rust/palimpsest_client/mod.rs',
      'palimpsest://clients/rust/palimpsest_client/json.rs',
      'palimpsest://clients/typescript/palimpsest-protocol.ts',
    ]));
  });

  it('reads the same answers the JSON-lines methods give under this profile, and the client files as generated', async () => {
    const caps = JSON.parse((await read('palimpsest://protocol/capabilities')).text);
    expect(caps).toMatchObject({ status: 'ok', protocol: PROTOCOL_VERSION, payload: { capability: 'read_only' } });
    const writes: string[] = CATALOG.filter((op) => !servedReadOnly(op)).map((op) => op.name);
    expect(caps.payload.methods.filter((m: string) => writes.includes(m))).toEqual([]);
    const python = await read('palimpsest://clients/python/palimpsest_client.py');
    expect(python).toMatchObject({ mimeType: 'text/x-python' });
    expect(python.text).toBe(readFileSync(join(REPO_ROOT, 'clients', 'python', 'palimpsest_client.py'), 'utf8'));
    await expect(mcp.client.readResource({ uri: 'palimpsest://nothing' })).rejects.toThrow(/No resource palimpsest:\/\/nothing/);
  });
});
