import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RETRYABLES } from '@palimpsest/core/errors/error-model';
import { ALLOW_ALL } from '@palimpsest/core/policy/owner-policy';
import { dispatch as typedDispatch, dispatchRequest as dispatch, type DispatchOptions } from '@palimpsest/application/dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '@palimpsest/application/test-support/workspace-harness';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { MAX_RESULT_BYTES, sentBytes } from '@palimpsest/protocol/result-bytes';
import { toolResult } from './mcp-server';

/** Every `retryable` in an answer, with where it stands. */
function retryables(node: unknown, at = '$'): [string, unknown][] {
  if (Array.isArray(node)) return node.flatMap((n, i) => retryables(n, `${at}[${i}]`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => (k === 'retryable' ? [[`${at}.${k}`, v] as [string, unknown]] : retryables(v, `${at}.${k}`)));
}

const UNKNOWN_TARGET = '00000000-0000-4000-8000-000000000000';

describe(`isError and retryable: one rule across tools, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  let target: string;
  let ts: string;

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-tool-result-');
    writeFileSync(join(h.dir, 'a.md'), '# A\n\nalpha beta alpha\n');
    target = String((await typedDispatch(h.ctx, 'palimpsest_initialize_target', { filename: 'b.md', content: 'alpha beta alpha\n' })).target_file_id);
    ts = String((await typedDispatch(h.ctx, 'palimpsest_initialize_target', { filename: 'c.ts', content: 'function f() {}\nclass A { f() {} }\n', content_type: 'text/typescript' })).target_file_id);
  });
  afterAll(() => h.dispose());

  /** [tool, args, isError expected, dispatch options] */
  const calls = (): [string, Record<string, unknown>, boolean, DispatchOptions?][] => [
    ['read_file', { path: 'a.md' }, false],
    ['grep', { pattern: 'alpha' }, false],
    ['list_files', {}, false],
    ['palimpsest_capabilities', {}, false],
    ['palimpsest_get_target', { target_file_id: target }, false],
    ['palimpsest_get_attempt_log', { target_file_id: target }, false],
    ['palimpsest_observe_scope', { target_file_id: ts, query: 'f' }, false],
    ['read_file', { path: '../x' }, true],
    ['read_file', { path: 'missing.md' }, true],
    ['grep', { pattern: '(' }, true],
    ['edit_file', { path: 'a.md', oldString: 'alpha', newString: 'gamma' }, true],
    ['edit_file', { path: 'a.md', oldString: 'omega', newString: 'gamma' }, true],
    ['edit_file', { path: 'a.md', oldString: 'beta', newString: 'BETA' }, false],
    ['write_file', { path: 'x/new.md', content: 'new\n' }, false],
    ['write_file', { path: 'x/new.md', content: 'new\n', extra: 1 }, true],
    ['palimpsest_submit_edits', { target_file_id: target, intent: 'r', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }] }, true],
    ['palimpsest_submit_edits', { target_file_id: target, intent: 'r', expected_target_version: 9, edits: [{ match: 'beta', replace: 'gamma' }] }, true],
    ['palimpsest_submit_edits', { target_file_id: target, intent: 'r', expected_target_version: 0, edits: [{ match: 'beta', replace: 'gamma' }] }, false],
    ['palimpsest_get_target', { target_file_id: UNKNOWN_TARGET }, true],
    ['palimpsest_observe_scope', { target_file_id: ts, symbol_name: 'f' }, true],
    ['palimpsest_change_inspect', { candidate: UNKNOWN_TARGET }, true],
    ['palimpsest_initialize_target', { filename: 'd.md', content: 'x' }, true, { readOnly: true }],
    ['edit_file', { path: 'a.md', oldString: 'BETA', newString: 'beta' }, true, { policy: { ...ALLOW_ALL, name: 'reads', tools: ['read_file'] } }],
  ];

  it('sets isError for every refusal and error, and only for them, whatever the tool', async () => {
    const seen = new Set<string>();
    for (const [tool, args, isError, opts] of calls()) {
      const answer = await dispatch(h.ctx, tool, args, opts);
      const result = toolResult(answer);
      seen.add(answer.status);
      expect({ tool, args, status: answer.status, isError: result.isError }).toEqual({ tool, args, status: answer.status, isError });
    }
    expect([...seen].sort()).toEqual(['accepted', 'ambiguous', 'candidates', 'error', 'invalid_argument', 'not_found', 'ok', 'rejected'].sort());
  });

  it('keeps every answer within MAX_RESULT_BYTES as sent: a target text too large to send is cut and continued by offset', async () => {
    const big = String((await typedDispatch(h.ctx, 'palimpsest_initialize_target', { filename: 'big.txt', content: 'é\n'.repeat(300_000) })).target_file_id);
    for (const [tool, args] of [['palimpsest_get_target', { target_file_id: big }], ['palimpsest_export_target', { target_file_id: big }]] as const) {
      const answer = await dispatch(h.ctx, tool, args);
      expect({ tool, sent: sentBytes(answer) <= MAX_RESULT_BYTES }).toEqual({ tool, sent: true });
      expect(toolResult(answer).isError).toBe(false);
    }
    const got = await dispatch(h.ctx, 'palimpsest_get_target', { target_file_id: big });
    const [cut] = got.result_truncated as { path: string; returned: number }[];
    expect(cut.path).toBe('$.current_content');
    const next = (got.next_actions as { operation: string; params: Record<string, unknown> }[]).at(-1)!;
    expect(await dispatch(h.ctx, next.operation, next.params)).toMatchObject({ status: 'ok', start: cut.returned });
  });

  it('gives every refusal one retryable, a string, at the top (the error envelope: in its error), and no other', async () => {
    for (const [tool, args, isError, opts] of calls()) {
      const answer = await dispatch(h.ctx, tool, args, opts);
      if (!isError) continue;
      const found = retryables(answer);
      const place = answer.status === 'error' ? '$.error.retryable' : '$.retryable';
      expect({ tool, args, found: found.map(([where]) => where) }).toEqual({ tool, args, found: [place] });
      expect(RETRYABLES).toContain(found[0]![1]);
    }
  });
});
