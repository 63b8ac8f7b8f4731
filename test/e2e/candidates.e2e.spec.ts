import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CANDIDATE_OPERATIONS } from '@palimpsest/protocol/catalog/operations/candidates.operations';
import { isolatedStore } from '../support/cli-process';
import { connectMcp, type McpSession } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const POLICY = `
profiles:
  reviewer: { mode: read_only }
  narrow: { mode: allow_list, allow: [], tools: [palimpsest_initialize_target, palimpsest_change_propose, palimpsest_change_inspect, palimpsest_check_run] }
checks:
  wc: { argv: [wc, -l, "{files}"] }
`;

describe(`candidates over MCP (real stdio, SDK client) on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let mcp: McpSession;
  const target = async (content: string, filename = 'doc.md') => (await mcp.call('palimpsest_initialize_target', { filename, content })).result.target_file_id as string;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-policy-'));
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    env = { ...store.env, PALIMPSEST_POLICY_FILE: join(dir, 'policy.yaml') };
    mcp = await connectMcp(env);
  });
  afterAll(async () => {
    await mcp?.close();
    await store.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('proposes, inspects, checks and applies a two-target change; each target replays', async () => {
    const { tools } = await mcp.client.listTools();
    for (const op of CANDIDATE_OPERATIONS) expect(tools.map((t) => t.name)).toContain(op.name);
    const doc = await target('alpha beta alpha\n');
    const data = await target('{"n": 1}\n', 'n.json');
    const proposed = await mcp.call('palimpsest_change_propose', {
      request_id: 'e2e-1',
      base: [{ target_file_id: doc, version: 0 }, { target_file_id: data, version: 0 }],
      operations: [
        { kind: 'edit', target_file_id: doc, match: 'alpha', replace: 'gamma', occurrence_index: 2, handle: 'g' },
        { kind: 'span', target_file_id: doc, range: { handle: 'g' }, replace: 'delta' },
        { kind: 'match', target_file_id: data, match: '1', replace: '2' },
      ],
    });
    expect(proposed).toMatchObject({ isError: false, result: { status: 'ok', candidate: { version: 1, state: 'open' } } });
    const id = proposed.result.candidate.id;
    const inspected = await mcp.call('palimpsest_change_inspect', { candidate: id, include: ['semantic_diff', 'source_diff'] });
    expect(inspected.result.targets[0].semantic_diff).toEqual([expect.objectContaining({ before: 'alph', after: 'delt', operations: [{ candidate_version: 1, index: 0 }, { candidate_version: 1, index: 1 }] })]);
    expect(inspected.result.targets[1].source_diff.hunks[0].lines).toEqual(['-{"n": 1}', '+{"n": 2}']);
    const checked = await mcp.call('palimpsest_check_run', { candidate: id, checks: ['json', 'wc'] });
    expect(checked.result).toMatchObject({ status: 'ok', ok: true, checks: [{ check: 'json', status: 'passed' }, { check: 'wc', status: 'passed', kind: 'command' }] });
    const applied = await mcp.call('palimpsest_change_apply', { candidate: id, expected_candidate_version: 1, request_id: 'e2e-apply-1', require_checks: ['json'] });
    expect(applied).toMatchObject({ isError: false, result: { status: 'ok', replayed: false, receipt: { outcome: 'applied', candidate: id } } });
    expect((await mcp.call('palimpsest_get_target', { target_file_id: doc })).result.current_content).toBe('alpha beta delta\n');
    for (const t of [doc, data]) expect((await mcp.call('palimpsest_replay', { target_file_id: t })).result).toMatchObject({ status: 'success', materialized_state_matches: true });
  });

  it('answers failures in seed 000 envelope with isError', async () => {
    const doc = await target('one\n');
    const bad = await mcp.call('palimpsest_change_propose', { request_id: 'e2e-bad', base: [{ target_file_id: doc, version: 0 }], operations: [{ kind: 'edit', target_file_id: doc, match: 'two', replace: 'x' }] });
    expect(bad).toMatchObject({ isError: true, result: { status: 'error', error: { code: 'precondition_failed', reason: 'match_absent', operation_index: 0, retryable: 'after_refresh' } } });
    expect(bad.result.error.next_actions.length).toBeGreaterThan(0);
    const ghost = await mcp.call('palimpsest_change_discard', { candidate: '00000000-0000-4000-8000-000000000000' });
    expect(ghost).toMatchObject({ isError: true, result: { error: { code: 'not_found', reason: 'candidate_unknown', retryable: 'none' } } });
  });

  it('a policy profile hides tools and refuses what it does not allow', async () => {
    await mcp.close(); // one process at a time holds an embedded store
    const narrow = await connectMcp(env, ['--profile', 'narrow']);
    try {
      const { tools } = await narrow.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['palimpsest_change_inspect', 'palimpsest_change_propose', 'palimpsest_check_run', 'palimpsest_initialize_target']);
      const apply = await narrow.call('palimpsest_change_apply', { candidate: '00000000-0000-4000-8000-000000000000', expected_candidate_version: 1, request_id: 'x' });
      expect(apply).toMatchObject({ isError: true, result: { error: { code: 'permission_denied', reason: 'policy', details: { answer: 'FORBIDDEN' } } } });
      const doc = (await narrow.call('palimpsest_initialize_target', { filename: 'w.txt', content: 'w\n' })).result.target_file_id;
      const p = await narrow.call('palimpsest_change_propose', { request_id: 'narrow-1', base: [{ target_file_id: doc, version: 0 }], operations: [{ kind: 'replace_all', target_file_id: doc, replacement: 'v\n' }] });
      const wc = await narrow.call('palimpsest_check_run', { candidate: p.result.candidate.id, checks: ['wc'] });
      expect(wc.result.error).toMatchObject({ code: 'permission_denied', details: { rule: 'check_not_allowed' } });
    } finally {
      await narrow.close();
    }
    const reviewer = await connectMcp(env, ['--profile', 'reviewer']);
    try {
      const { tools } = await reviewer.client.listTools();
      expect(tools.map((t) => t.name)).toContain('palimpsest_change_inspect');
      expect(tools.map((t) => t.name)).not.toContain('palimpsest_change_apply');
    } finally {
      await reviewer.close();
    }
  });
});
