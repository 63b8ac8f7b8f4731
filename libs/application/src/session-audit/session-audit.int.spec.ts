import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALLOW_ALL, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest, type DispatchOptions } from '../dispatch/dispatch';
import { expectPublishedResult } from '../file-tools/test-support/published-result';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

const LISTED: OwnerPolicy = { ...ALLOW_ALL, name: 'listed', mode: 'allow_list', allow: ['node --version'] };

describe(`the audit reads of client sessions (palimpsest_session_activity, palimpsest_list_sessions), on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = async (tool: string, args: unknown, opts: DispatchOptions = {}) => {
    const answer = (await dispatchRequest(h.ctx, tool, args, opts)) as Record<string, any>;
    expectPublishedResult(tool, answer);
    return answer;
  };
  const session = () => h.ctx.ids.next();
  let a: string;
  let b: string;
  let failing: Record<string, any>;

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-session-reads-');
    a = session();
    b = session();
    writeFileSync(join(h.dir, 'a.ts'), 'const a = 1;\n');
    expect(await call('edit_file', { path: 'a.ts', oldString: 'const a = 1;', newString: 'const a = 2;' }, { correlationId: a })).toMatchObject({ status: 'ok' });
    failing = await call('run_command', { command: 'node -e "process.exit(1)"' }, { correlationId: a });
    expect(failing).toMatchObject({ status: 'ok', exitCode: 1 });
    expect(await call('edit_file', { path: 'a.ts', oldString: 'no such text', newString: 'x' }, { correlationId: a })).toMatchObject({ status: 'rejected' });
    expect(await call('run_command', { command: 'touch refused-marker' }, { correlationId: a, policy: LISTED })).toMatchObject({ code: 'FORBIDDEN' });
    expect(await call('edit_file', { path: 'a.ts', oldString: 'const a = 2;', newString: 'const a = 3;' }, { correlationId: a })).toMatchObject({ status: 'ok' });
    expect(await call('run_command', { command: 'node --version' }, { correlationId: b })).toMatchObject({ status: 'ok', exitCode: 0 });
  });
  afterAll(async () => {
    await h.ctx.commands.stop();
    await h.dispose();
  });

  it('answers one session\'s edits and runs in log order: what, path, attempt or run, status, exit, times; never another session\'s', async () => {
    const r = await call('palimpsest_session_activity', { correlation_id: a });
    expect(r).toMatchObject({ status: 'ok', correlation_id: a, next_after_position: null });
    expect(r.next_actions).toBeUndefined();
    expect(r.entries.map((e: any) => [e.kind, e.tool, e.status])).toEqual([
      ['edit', 'edit_file', 'accepted'],
      ['command', 'run_command', 'exited'],
      ['edit', 'edit_file', 'rejected'],
      ['command', 'run_command', 'refused'],
      ['edit', 'edit_file', 'accepted'],
    ]);
    const [edited, ran, rejected, refused, again] = r.entries;
    expect(edited).toMatchObject({ what: 'edit_file a.ts', path: 'a.ts', target_file_id: expect.any(String), attempt_id: expect.any(String), run_id: null, version: 1, exit_code: null, reason: null });
    expect(ran).toMatchObject({ what: 'node -e "process.exit(1)"', run_id: failing.runId, path: null, exit_code: 1, signal: null, duration_ms: expect.any(Number), ended_at: expect.any(String) });
    expect(rejected).toMatchObject({ path: 'a.ts', version: null, reason: expect.any(String) });
    expect(refused).toMatchObject({ what: 'touch refused-marker', exit_code: null, reason: expect.stringMatching(/^FORBIDDEN: /), ended_at: expect.any(String) });
    expect(again).toMatchObject({ path: 'a.ts', version: 2, target_file_id: edited.target_file_id });
    const positions = r.entries.map((e: any) => e.position);
    expect([...positions].sort((x: number, y: number) => x - y)).toEqual(positions);
    expect(Date.parse(ran.recorded_at)).toBeLessThanOrEqual(Date.parse(ran.ended_at));
  });

  it('pages with a continuation and a typed next action that, sent as it is, reads the next page', async () => {
    const seen: any[] = [];
    let page = await call('palimpsest_session_activity', { correlation_id: a, limit: 2 });
    for (let i = 0; i < 5 && page.next_after_position !== null; i++) {
      seen.push(...page.entries);
      expect(page.entries).toHaveLength(2);
      expect(page.next_actions).toEqual([{ operation: 'palimpsest_session_activity', reason: expect.any(String), params: { correlation_id: a, after_position: page.next_after_position, limit: 2 } }]);
      page = await call(page.next_actions[0].operation, page.next_actions[0].params);
    }
    seen.push(...page.entries);
    expect(page.next_after_position).toBeNull();
    expect(seen.map((e) => e.position)).toEqual((await call('palimpsest_session_activity', { correlation_id: a })).entries.map((e: any) => e.position));
  });

  it('lists sessions with counts and time span, most recently active first, paged', async () => {
    const r = await call('palimpsest_list_sessions', {});
    const mine = r.sessions.filter((s: any) => s.correlation_id === a || s.correlation_id === b);
    expect(mine).toEqual([
      { correlation_id: b, edits: 0, command_runs: 1, first_at: expect.any(String), last_at: expect.any(String), first_position: expect.any(Number), last_position: expect.any(Number) },
      { correlation_id: a, edits: 3, command_runs: 2, first_at: expect.any(String), last_at: expect.any(String), first_position: expect.any(Number), last_position: expect.any(Number) },
    ]);
    expect(Date.parse(mine[1].first_at)).toBeLessThanOrEqual(Date.parse(mine[1].last_at));
    const first = await call('palimpsest_list_sessions', { limit: 1 });
    expect(first.sessions.map((s: any) => s.correlation_id)).toEqual([b]);
    expect(first.next_actions).toEqual([
      { operation: 'palimpsest_session_activity', reason: expect.any(String), params: { correlation_id: b } },
      { operation: 'palimpsest_list_sessions', reason: expect.any(String), params: { before_position: first.next_before_position, limit: 1 } },
    ]);
    const second = await call('palimpsest_list_sessions', first.next_actions[1].params);
    expect(second.sessions.map((s: any) => s.correlation_id)).toEqual([a]);
  });

  it('the read-only profile reads them; a session that recorded nothing answers no entries; a malformed id is refused', async () => {
    expect(await call('palimpsest_session_activity', { correlation_id: a }, { readOnly: true })).toMatchObject({ status: 'ok', entries: expect.any(Array) });
    expect((await call('palimpsest_session_activity', { correlation_id: a }, { readOnly: true })).entries).toHaveLength(5);
    expect(await call('palimpsest_list_sessions', {}, { readOnly: true })).toMatchObject({ status: 'ok' });
    expect(await call('palimpsest_session_activity', { correlation_id: session() })).toEqual({ status: 'ok', correlation_id: expect.any(String), entries: [], next_after_position: null });
    expect(await call('palimpsest_session_activity', { correlation_id: 'a b' })).toMatchObject({ status: 'invalid_argument' });
    expect(await call('palimpsest_session_activity', { correlation_id: a, limit: 201 })).toMatchObject({ status: 'invalid_argument' });
  });
  it('shows a session\'s submissions and undos beside its file tools; a submission without a session records none', async () => {
    const c = session();
    const id = (await call('palimpsest_initialize_target', { filename: 'c.md', content: 'alpha\n' })).target_file_id;
    const edit = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'shout', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'ALPHA' }] }, { correlationId: c });
    expect(edit).toMatchObject({ status: 'accepted' });
    expect(await call('palimpsest_undo_attempt', { target_file_id: id, attempt_id: edit.attempt_id }, { correlationId: c })).toMatchObject({ status: 'accepted' });
    expect(await call('palimpsest_submit_edits', { target_file_id: id, intent: 'unseen', expected_target_version: 2, edits: [{ match: 'alpha', replace: 'beta' }] })).toMatchObject({ status: 'accepted' });
    const r = await call('palimpsest_session_activity', { correlation_id: c });
    expect(r.entries.map((e: any) => [e.kind, e.tool, e.status, e.version, e.target_file_id])).toEqual([
      ['edit', 'palimpsest_submit_edits', 'accepted', 1, id],
      ['edit', 'palimpsest_submit_operations', 'accepted', 2, id],
    ]);
  });
});
