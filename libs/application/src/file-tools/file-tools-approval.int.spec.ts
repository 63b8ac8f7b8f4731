import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { ANSWER_SCHEMAS } from '@palimpsest/protocol/catalog/answer-schemas';
import { ALLOW_ALL, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import type { AppContext } from '../app-context';
import { decideApproval, listApprovals } from '../candidates/approvals/approvals.handler';
import { DEFAULTS } from '../candidates/shared/candidate-config';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import type { ProgressUpdate } from '../dispatch/operation-handler';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';
import { expectPublishedResult } from './test-support/published-result';

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
const okSchemas = { edit_file: ajv.compile(ANSWER_SCHEMAS.edit_file), write_file: ajv.compile(ANSWER_SCHEMAS.write_file) };
const reviewed: OwnerPolicy = { ...ALLOW_ALL, name: 'reviewed', approve: true };

describe(`edit_file and write_file under an approval policy on ${describeBackend}`, () => {
  let harness: WorkspaceHarness;
  let ctx: AppContext;
  let dir: string;
  beforeAll(async () => {
    harness = await createWorkspaceHarness('palimpsest-fapprove-');
    ({ ctx, dir } = harness);
  });
  afterAll(async () => {
    Object.assign(ctx.candidates, { approvalWaitMs: DEFAULTS.approvalWaitMs, approvalPollMs: DEFAULTS.approvalPollMs });
    await harness.dispose();
  });

  const put = (path: string, text: string) => writeFileSync(join(dir, path), text);
  const file = (path: string) => readFileSync(join(dir, path)).toString();
  const raw = (name: string, args: unknown) => dispatch(ctx, name, args) as Promise<Record<string, any>>;
  async function tool(name: 'edit_file' | 'write_file', args: unknown, updates: ProgressUpdate[] = [], signal?: AbortSignal) {
    const r = (await dispatch(ctx, name, args, { policy: reviewed, progress: { everyMs: 50, report: (u) => void updates.push(u) }, signal })) as Record<string, any>;
    expectPublishedResult(name, r);
    if (r.status === 'ok') expect(okSchemas[name](r) ? null : okSchemas[name].errors).toBeNull();
    return r;
  }
  const waitMs = (approvalWaitMs: number) => Object.assign(ctx.candidates, { approvalWaitMs, approvalPollMs: 20 });
  /** The one pending approval, once the tool has asked for it. */
  async function pending(): Promise<string> {
    for (let i = 0; i < 500; i++) {
      const open = await listApprovals(ctx.db, { status: 'pending' });
      if (open.length) return open[0].approval_id;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no approval was asked for');
  }
  async function decided(name: 'edit_file' | 'write_file', args: unknown, decision: 'grant' | 'decline', updates: ProgressUpdate[] = []) {
    waitMs(20_000);
    const answer = tool(name, args, updates);
    const approvalId = await pending();
    expect((await decideApproval(ctx, { approval_id: approvalId, decision, decided_by: 'ops' })).status).toBe('ok');
    return { r: await answer, approvalId };
  }

  it('publishes an edit once an operator grants it, with progress while it waits, recorded like any edit', async () => {
    put('g.ts', 'const a = 1;\r\nconst b = 2;\r\n');
    const updates: ProgressUpdate[] = [];
    const { r } = await decided('edit_file', { path: 'g.ts', oldString: 'const b = 2;', newString: 'const b = 20;' }, 'grant', updates);
    expect(r).toMatchObject({ status: 'ok', path: 'g.ts', replacements: 1, version: 1, content_eol: 'crlf', journal: { state: 'committed' } });
    expect(r.diff).toContain('-const b = 2;\n+const b = 20;');
    expect(file('g.ts')).toBe('const a = 1;\r\nconst b = 20;\r\n');
    expect(updates.length).toBeGreaterThan(0);
    const log = await raw('palimpsest_get_attempt_log', { target_file_id: r.target_file_id });
    expect(log.entries.map((a: any) => a.attempt_id)).toContain(r.attempt_id);
    const replay = await raw('palimpsest_replay', { target_file_id: r.target_file_id });
    expect(replay).toMatchObject({ status: 'success', materialized_state_matches: true });
  });

  it('replaces a whole file once granted, answering the bytes written', async () => {
    put('w.md', 'old\n');
    const { r } = await decided('write_file', { path: 'w.md', content: 'new text\n' }, 'grant');
    expect(r).toMatchObject({ status: 'ok', path: 'w.md', created: false, bytesWritten: 9, version: 1, journal: { state: 'committed' } });
    expect(file('w.md')).toBe('new text\n');
  });

  it('publishes a granted edit of a file with mixed line endings as the file tools do: LF throughout, in sync afterwards', async () => {
    put('m.txt', 'one\r\ntwo\nthree\r\n');
    const { r } = await decided('edit_file', { path: 'm.txt', oldString: 'two', newString: 'TWO' }, 'grant');
    expect(r).toMatchObject({ status: 'ok', path: 'm.txt', replacements: 1, version: 1, content_eol: 'lf', journal: { state: 'committed' } });
    expect(file('m.txt')).toBe('one\nTWO\nthree\n');
    const status = await raw('palimpsest_workspace_status', { path_prefix: 'm.txt' });
    expect(status.files).toEqual([expect.objectContaining({ path: 'm.txt', state: 'in_sync' })]);
    const replay = await raw('palimpsest_replay', { target_file_id: r.target_file_id });
    expect(replay).toMatchObject({ status: 'success', materialized_state_matches: true });
  });

  it('answers APPROVAL_DECLINED when an operator declines, and leaves the file untouched', async () => {
    put('d.md', 'keep me\n');
    const { r, approvalId } = await decided('edit_file', { path: 'd.md', oldString: 'keep', newString: 'drop' }, 'decline');
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'approval_declined', answer: 'APPROVAL_DECLINED', approval_id: approvalId, path: 'd.md' });
    expect(r.failure_detail).toContain('This is an answer, not an obstacle');
    expect(file('d.md')).toBe('keep me\n');
    expect(await listApprovals(ctx.db, { status: 'pending' })).toEqual([]);
    expect((await raw('palimpsest_get_target', { target_file_id: r.target_file_id })).version).toBe(0);
  });

  it('answers APPROVAL_TIMEOUT when nobody decides in time, and leaves the file untouched', async () => {
    put('t.md', 'wait\n');
    waitMs(100);
    const r = await tool('write_file', { path: 't.md', content: 'never\n' });
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'approval_timeout', answer: 'APPROVAL_TIMEOUT', path: 't.md' });
    expect(typeof r.approval_id).toBe('string');
    expect(file('t.md')).toBe('wait\n');
    expect(await listApprovals(ctx.db, { status: 'pending' })).toEqual([]); // the tool's candidate was discarded: no late grant applies it
    expect((await raw('palimpsest_get_target', { target_file_id: r.target_file_id })).version).toBe(0);
  });

  it.each([
    ['edit_file', 'c.md', { oldString: 'keep', newString: 'lost' }],
    ['write_file', 'c2.md', { content: 'lost\n' }],
    ['write_file', 'c3/new.md', { content: 'lost\n' }],
  ] as const)('answers CANCELLED when the caller cancels %s while it waits (%s): the approval is withdrawn, a late grant writes nothing', async (name, path, args) => {
    if (!path.includes('/')) put(path, 'keep me\n');
    waitMs(20_000);
    const caller = new AbortController();
    const answer = tool(name, { path, ...args }, [], caller.signal);
    const approvalId = await pending();
    caller.abort();
    const r = await answer;
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'CANCELLED', answer: 'CANCELLED', approval_id: approvalId, path });
    expect(await listApprovals(ctx.db, { status: 'pending' })).toEqual([]);
    expect((await listApprovals(ctx.db, { status: 'withdrawn' })).map((a) => a.approval_id)).toContain(approvalId);
    const late = await decideApproval(ctx, { approval_id: approvalId, decision: 'grant', decided_by: 'ops' });
    expect(late.status).not.toBe('ok');
    if (path.includes('/')) expect(existsSync(join(dir, path))).toBe(false);
    else expect(file(path)).toBe('keep me\n');
  });

  it('records a rejected edit (no match) as a rejection without asking anyone', async () => {
    put('r.md', 'alpha\n');
    const before = (await listApprovals(ctx.db, { status: 'all' })).length;
    const r = await tool('edit_file', { path: 'r.md', oldString: 'omega', newString: 'x' });
    expect(r).toMatchObject({ status: 'rejected', failure_reason: 'match_absent', match_count: 0 });
    expect((await listApprovals(ctx.db, { status: 'all' })).length).toBe(before);
    const log = await raw('palimpsest_get_attempt_log', { target_file_id: r.target_file_id });
    expect(log.entries.map((a: any) => a.attempt_id)).toContain(r.attempt_id);
    expect(file('r.md')).toBe('alpha\n');
  });

  it('creates a new file once granted: byte for byte, bound to a new target, published, in the attempt log and ledger', async () => {
    const updates: ProgressUpdate[] = [];
    const { r, approvalId } = await decided('write_file', { path: 'sub/new.md', content: 'a\r\nb\r\n' }, 'grant', updates);
    expect(r).toMatchObject({ status: 'ok', path: 'sub/new.md', created: true, bytesWritten: 6, version: 1, content_eol: 'crlf', bound_now: true, journal: { state: 'committed' } });
    expect(file('sub/new.md')).toBe('a\r\nb\r\n');
    expect(updates.length).toBeGreaterThan(0);
    expect((await listApprovals(ctx.db, { status: 'all' })).find((a) => a.approval_id === approvalId)?.prompt).toContain('sub/new.md');
    const log = await raw('palimpsest_get_attempt_log', { target_file_id: r.target_file_id });
    expect(log.entries.map((a: any) => a.attempt_id)).toContain(r.attempt_id);
    expect(JSON.stringify(await raw('palimpsest_get_manifest_ledger', { target_file_id: r.target_file_id }))).toContain(r.attempt_id);
    expect(await raw('palimpsest_replay', { target_file_id: r.target_file_id })).toMatchObject({ status: 'success', materialized_state_matches: true });
    const status = await raw('palimpsest_workspace_status', { path_prefix: 'sub/new.md' });
    expect(status.files).toEqual([expect.objectContaining({ target_file_id: r.target_file_id, state: 'in_sync' })]);
    // The file tools now write through the new target, in the file's CRLF style.
    const edited = await raw('edit_file', { path: 'sub/new.md', oldString: 'b', newString: 'c' });
    expect(edited).toMatchObject({ status: 'ok', target_file_id: r.target_file_id, version: 2, content_eol: 'crlf' });
    expect(file('sub/new.md')).toBe('a\r\nc\r\n');
  });

  it('answers APPROVAL_DECLINED for a new file when an operator declines, and creates nothing', async () => {
    const { r, approvalId } = await decided('write_file', { path: 'no/such.md', content: 'x\n' }, 'decline');
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'approval_declined', answer: 'APPROVAL_DECLINED', approval_id: approvalId, path: 'no/such.md' });
    expect(existsSync(join(dir, 'no/such.md'))).toBe(false);
    expect(await listApprovals(ctx.db, { status: 'pending' })).toEqual([]);
    expect(await raw('read_file', { path: 'no/such.md' })).toMatchObject({ status: 'not_found', code: 'PATH_NOT_FOUND' });
  });

  it('answers APPROVAL_TIMEOUT for a new file when nobody decides in time, and creates nothing', async () => {
    waitMs(100);
    const r = await tool('write_file', { path: 'late.md', content: 'x\n' });
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'approval_timeout', answer: 'APPROVAL_TIMEOUT', path: 'late.md' });
    expect(existsSync(join(dir, 'late.md'))).toBe(false);
    expect(await listApprovals(ctx.db, { status: 'pending' })).toEqual([]);
  });

  it('keeps a file that appeared at the path while its creation waited for a grant', async () => {
    waitMs(20_000);
    const answer = tool('write_file', { path: 'race.md', content: 'mine\n' });
    const approvalId = await pending();
    put('race.md', 'theirs\n');
    expect((await decideApproval(ctx, { approval_id: approvalId, decision: 'grant', decided_by: 'ops' })).status).toBe('ok');
    const r = await answer;
    expect(r).toMatchObject({ status: 'rejected', failure_reason: 'external_write' });
    expect(file('race.md')).toBe('theirs\n');
  });
});
