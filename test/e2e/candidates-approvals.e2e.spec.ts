import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedStore, runCli } from '../support/cli-process';
import { connectMcp, type McpSession } from '../support/mcp-client';

/**
 * Approvals end to end: an MCP session under a profile with `approve: true`, an operator on the CLI.
 * Embedded PGlite admits one process at a time, so there the operator decides between sessions and
 * the agent resends; on PostgreSQL the operator also decides while the apply is waiting.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
const backend = onPostgres ? 'postgres' : 'pglite';

describe(`approvals over MCP and the CLI on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-approvals-'));
    writeFileSync(join(dir, 'policy.yaml'), 'profiles:\n  reviewed: { mode: allow_all, approve: true }\n');
    env = { ...store.env, PALIMPSEST_POLICY_FILE: join(dir, 'policy.yaml'), PALIMPSEST_APPROVAL_POLL_MS: '100' };
  });
  afterAll(async () => {
    await store.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  async function session<T>(waitMs: number, fn: (mcp: McpSession) => Promise<T>): Promise<T> {
    const mcp = await connectMcp({ ...env, APPROVAL_WAIT_MS: String(waitMs) }, ['--profile', 'reviewed']);
    try {
      return await fn(mcp);
    } finally {
      await mcp.close();
    }
  }

  async function candidate(mcp: McpSession, word: string): Promise<string> {
    const t = (await mcp.call('palimpsest_initialize_target', { filename: `${word}.md`, content: `${word}\n` })).result.target_file_id;
    const p = await mcp.call('palimpsest_change_propose', { request_id: `prop-${word}`, base: [{ target_file_id: t, version: 0 }], operations: [{ kind: 'replace_all', target_file_id: t, replacement: `${word}!\n` }] });
    return p.result.candidate.id;
  }

  const apply = (mcp: McpSession, id: string, requestId: string) =>
    mcp.call('palimpsest_change_apply', { candidate: id, expected_candidate_version: 1, request_id: requestId });

  async function pending(): Promise<{ approval_id: string; candidate: string }[]> {
    const r = await runCli(['approvals', 'list', '--json'], { env });
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  }

  async function decide(verb: 'approve' | 'decline', approvalId: string) {
    const r = await runCli(['approvals', verb, approvalId, '--note', 'e2e', '--by', 'ops'], { env });
    expect({ code: r.code, out: JSON.parse(r.stdout) }).toMatchObject({ code: 0, out: { status: 'ok', approval: { status: verb === 'approve' ? 'granted' : 'declined', decided_by: 'ops' } } });
  }

  it('times out with APPROVAL_TIMEOUT; after the operator decides, resending the same request picks it up', async () => {
    const [a, b] = await session(400, async (mcp) => {
      const ids = [await candidate(mcp, 'approved'), await candidate(mcp, 'declined')];
      for (const [i, id] of ids.entries()) {
        const r = await apply(mcp, id, `apply-${i}`);
        expect(r).toMatchObject({ isError: true, result: { error: { code: 'permission_denied', reason: 'approval_timeout', retryable: 'same_request', details: { answer: 'APPROVAL_TIMEOUT' } } } });
      }
      return ids;
    });
    const waiting = await pending();
    expect(waiting.map((w) => w.candidate).sort()).toEqual([a, b].sort());
    await decide('approve', waiting.find((w) => w.candidate === a)!.approval_id);
    await decide('decline', waiting.find((w) => w.candidate === b)!.approval_id);
    expect(await pending()).toEqual([]);
    await session(400, async (mcp) => {
      const applied = await apply(mcp, a, 'apply-0');
      expect(applied).toMatchObject({ isError: false, result: { status: 'ok', replayed: false, receipt: { outcome: 'applied', request_id: 'apply-0' } } });
      expect((await apply(mcp, a, 'apply-0')).result).toMatchObject({ status: 'ok', replayed: true });
      for (const requestId of ['apply-1', 'apply-another']) {
        expect(await apply(mcp, b, requestId)).toMatchObject({ isError: true, result: { error: { code: 'permission_denied', reason: 'approval_declined', retryable: 'none' } } });
      }
    });
  });

  it('an operator decides while the apply waits (PostgreSQL); embedded PGlite refuses the second process clearly', async () => {
    if (!onPostgres) {
      // One process owns an embedded store: the operator's CLI is told so instead of corrupting it.
      await session(30_000, async () => {
        const r = await runCli(['approvals', 'list', '--json'], { env });
        expect(r.code).not.toBe(0);
        expect(r.stderr).toMatch(/data directory is in use by pid \d+/);
      });
      return;
    }
    await session(30_000, async (mcp) => {
      for (const verb of ['approve', 'decline'] as const) {
        const id = await candidate(mcp, `live-${verb}`);
        const started = Date.now();
        const answer = apply(mcp, id, `live-${verb}`);
        let found: { approval_id: string } | undefined;
        while (!found) found = (await pending()).find((w) => w.candidate === id);
        await decide(verb, found.approval_id);
        const r = await answer;
        expect(Date.now() - started).toBeLessThan(20_000);
        if (verb === 'approve') expect(r.result).toMatchObject({ status: 'ok', receipt: { outcome: 'applied' } });
        else expect(r.result.error).toMatchObject({ code: 'permission_denied', reason: 'approval_declined' });
      }
    });
  });
});
