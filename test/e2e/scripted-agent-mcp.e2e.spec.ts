import { SCRIPT, inProcessTransport, runScript } from '../../bench/scripted-agent.script';
import { isolatedStore } from '../support/cli-process';
import { connectMcp, type McpSession } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`the scripted agent over MCP stdio (SDK client), following the result's next_actions on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let mcp: McpSession;
  beforeAll(async () => {
    store = await isolatedStore();
    mcp = await connectMcp(store.env);
  });
  afterAll(async () => {
    await mcp?.close();
    await store.dispose();
  });

  it('lands all 50 edits as intended at no more than 1.1 calls per edit, each retry a tool call with the params as given', async () => {
    const run = await runScript(inProcessTransport(async (name, args) => (await mcp.call(name, args)).result), 'follow_next_actions');
    expect(run.problems).toEqual([]);
    expect(run.edits).toBe(SCRIPT.length);
    expect(run.calls).toBe(55);
    expect(run.callsPerEdit).toBeLessThanOrEqual(1.1);
  });
});
