import { SCRIPT, inProcessTransport, runScript } from '../../bench/scripted-agent.script';
import { useMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`the scripted agent over MCP stdio (SDK client), following the result's next_actions on ${backend}`, () => {
  const session = useMcp();

  it('lands all 50 edits as intended at no more than 1.1 calls per edit, each retry a tool call with the params as given', async () => {
    const run = await runScript(inProcessTransport(async (name, args) => (await session.mcp.call(name, args)).result), 'follow_next_actions');
    expect(run.problems).toEqual([]);
    expect(run.edits).toBe(SCRIPT.length);
    expect(run.calls).toBe(55);
    expect(run.callsPerEdit).toBeLessThanOrEqual(1.1);
  });
});
