import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGatewayAddress } from '@palimpsest/api/lifecycle/gateway-address';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { servedReadOnly } from '@palimpsest/protocol/catalog/operation-spec';
import { connectMcp, type McpSession } from '../support/mcp-client';
import { startApi, type ApiProcess } from '../support/http-server';

const READ_ONLY_TOOLS = CATALOG.filter(servedReadOnly).map((op) => op.name);

/**
 * `palimpsest mcp` while `palimpsest api` holds the embedded data directory: the stdio client is
 * relayed to the gateway's /mcp and works on the gateway's store, under the profile it asked for.
 * (Embedded on purpose: on PostgreSQL nothing holds the store, so `mcp` always serves in-process.)
 */
describe('palimpsest mcp relays to the gateway that holds the embedded store', () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  let api: ApiProcess | undefined;
  const sessions: McpSession[] = [];
  const connect = async (args: string[] = []) => {
    const session = await connectMcp(env, args);
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'palimpsest-mcp-gw-'));
    writeFileSync(join(root, 'policy.yaml'), 'profiles:\n  narrow: { mode: allow_all, tools: [palimpsest_get_target, palimpsest_submit_edits] }\n');
    env = { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(root, 'data'), PALIMPSEST_POLICY_FILE: join(root, 'policy.yaml') };
    api = await startApi(env, ['--no-local-token']);
  });
  afterAll(async () => {
    await Promise.allSettled(sessions.map((s) => s.close()));
    await api?.stop('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('lists every tool and edits the gateway\'s store: what the relay writes, the gateway reads', async () => {
    const mcp = await connect();
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).toEqual(CATALOG.map((op) => op.name));
    const created = await mcp.call('palimpsest_initialize_target', { filename: 'relay.md', content: 'alpha beta alpha\n' });
    const id = created.result.target_file_id as string;
    const ambiguous = await mcp.call('palimpsest_submit_edits', { target_file_id: id, intent: 'Rename', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }] });
    expect(ambiguous).toMatchObject({ isError: true, result: { status: 'rejected', failure_reason: 'match_ambiguous', retryable: 'after_refresh' } });
    const retry = ambiguous.result.next_actions[1];
    const accepted = await mcp.call(retry.operation, retry.params);
    expect(accepted.result).toMatchObject({ status: 'accepted', version: 1 });

    const { url, token } = readGatewayAddress(env.PALIMPSEST_DATA_DIR!)!;
    const text = await fetch(`${url}/v1/targets/${id}/text`, { headers: { authorization: `Bearer ${token}` } });
    expect(await text.json()).toMatchObject({ version: 1, text: 'alpha beta gamma\n' });
  });

  it('runs the profile it was started with: read-only lists and allows reads only, a named profile lists its tools only', async () => {
    const readOnly = await connect(['--profile', 'read-only']);
    expect((await readOnly.client.listTools()).tools.map((t) => t.name)).toEqual(READ_ONLY_TOOLS);
    const refused = await readOnly.call('palimpsest_initialize_target', { filename: 'no.md', content: 'x' });
    expect(refused).toMatchObject({ isError: true, result: { status: 'invalid_argument', code: 'operation_not_permitted' } }); // as on stdio

    const named = await connect(['--profile', 'narrow']);
    expect((await named.client.listTools()).tools.map((t) => t.name)).toEqual(['palimpsest_get_target', 'palimpsest_submit_edits']);
  });

  it('a gateway that goes away mid-session: the next request gets an error naming the gateway, not a silent close', async () => {
    const mcp = await connect();
    expect((await mcp.call('palimpsest_capabilities', {})).result.status).toBe('ok');
    await api!.stop('SIGKILL');
    api = undefined;
    await expect(mcp.client.callTool({ name: 'palimpsest_capabilities', arguments: {} })).rejects.toThrow(/the gateway at http:\/\/127\.0\.0\.1:\d+ did not take the request/);
  });
});
