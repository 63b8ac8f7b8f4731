import { isolatedStore } from '../support/cli-process';
import { connectMcp, type McpSession } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const SOURCE = 'def alpha(x):\n    return x + 1\n';
const span = (needle: string, replace: string) => ({ op: 'span', start: SOURCE.indexOf(needle), end: SOURCE.indexOf(needle) + needle.length, expected_text: needle, replace });

describe(`PALIMPSEST_STRICT_OBSERVATION_MODE=1 over real MCP stdio on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let mcp: McpSession;
  beforeAll(async () => {
    store = await isolatedStore();
    mcp = await connectMcp({ ...store.env, PALIMPSEST_STRICT_OBSERVATION_MODE: '1' });
  });
  afterAll(async () => {
    await mcp?.close();
    await store?.dispose();
  });

  it('refuses the unobserved write tools as audited OBSERVATION_REQUIRED rejections; an observed submission is accepted', async () => {
    const id = (await mcp.call('palimpsest_initialize_target', { filename: 'mod.py', content: SOURCE })).result.target_file_id;
    const unobserved: [string, Record<string, unknown>][] = [
      ['palimpsest_submit_edits', { edits: [{ match: 'x + 1', replace: 'x + 2' }] }],
      ['palimpsest_submit_operations', { operations: [span('x + 1', 'x + 2')] }],
      ['palimpsest_submit_replacement', { replacement: SOURCE.replace('x + 1', 'x + 2') }],
    ];
    const refused: string[] = [];
    for (const [tool, args] of unobserved) {
      const r = await mcp.call(tool, { target_file_id: id, intent: 'bump', expected_target_version: 0, ...args });
      expect(r.result).toMatchObject({ status: 'rejected', diagnostic: { code: 'OBSERVATION_REQUIRED' }, next_actions: [{ operation: 'palimpsest_observe_scope', params: { target_file_id: id } }] });
      refused.push(r.result.attempt_id);
    }
    const log = (await mcp.call('palimpsest_get_attempt_log', { target_file_id: id })).result;
    expect(log.entries.map((e: any) => e.attempt_id).sort()).toEqual([...refused].sort());

    const obs = (await mcp.call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'alpha' })).result;
    const ok = await mcp.call('palimpsest_submit_observed_operations', {
      target_file_id: id, observation_id: obs.observation_id, intent: 'bump', expected_target_version: 0, expected_current_hash: obs.target_current_hash, operations: [span('x + 1', 'x + 2')],
    });
    expect(ok).toMatchObject({ isError: false, result: { status: 'accepted', version: 1 } });
  });
});
