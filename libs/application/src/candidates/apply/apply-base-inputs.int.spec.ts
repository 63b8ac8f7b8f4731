import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest as dispatch } from '../../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../../test-support/workspace-harness';
import { edit } from '../test-support/candidate-harness';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The inputs of a candidate's base it does not write (read inputs), checked on disk at apply time (seed
 * 000): one edited outside Palimpsest since is allowed and listed in base_changes; one deleted or renamed
 * is precondition_failed (external_write), and nothing is written.
 */
describe(`palimpsest_change_apply checks the files of its read inputs, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  let n = 0;
  const call = (name: string, args: unknown) => dispatch(h.ctx, name, args) as Promise<Record<string, any>>;
  const disk = (path: string) => readFileSync(join(h.dir, path), 'utf8');

  async function bound(path: string, text: string): Promise<string> {
    writeFileSync(join(h.dir, path), text);
    return (await call('palimpsest_initialize_target', { filename: path, from_workspace: true })).target_file_id;
  }
  /** A candidate over [written, read] that edits only `written`. */
  async function readingCandidate(written: string, read: string, match: string): Promise<string> {
    const r = await call('palimpsest_change_propose', { request_id: `base-prop-${++n}`, base: [{ target_file_id: written, version: 0 }, { target_file_id: read, version: 0 }], operations: [edit(written, match, match.toUpperCase())] });
    expect(r.status).toBe('ok');
    return r.candidate.id;
  }
  const apply = (candidate: string) => call('palimpsest_change_apply', { candidate, expected_candidate_version: 1, request_id: `base-apply-${++n}` });

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-apply-inputs-');
  });
  afterAll(() => h.dispose());

  it('applies over a read input edited on disk since the base, and lists it in base_changes with its file', async () => {
    const written = await bound('w1.md', 'write me\n');
    const read = await bound('r1.md', 'read me\n');
    const candidate = await readingCandidate(written, read, 'write');
    writeFileSync(join(h.dir, 'r1.md'), 'read me, edited by hand\n');
    const r = await apply(candidate);
    expect(r).toMatchObject({ status: 'ok', receipt: { outcome: 'applied' } });
    expect(r.base_changes).toEqual([{
      target_file_id: read, base_version: 0, current_version: 0, base_sha256: expect.any(String), current_sha256: expect.any(String),
      disk: { path: 'r1.md', expected_sha256: sha256('read me\n'), observed_sha256: sha256('read me, edited by hand\n') },
    }]);
    expect(disk('w1.md')).toBe('WRITE me\n');
    expect(disk('r1.md')).toBe('read me, edited by hand\n');
  });

  it('refuses, writing nothing, when a read input was deleted or renamed since the base; the next actions it names answer', async () => {
    const written = await bound('w2.md', 'write me\n');
    const read = await bound('r2.md', 'read me\n');
    const candidate = await readingCandidate(written, read, 'write');
    rmSync(join(h.dir, 'r2.md'));
    const r = await apply(candidate);
    expect(r).toMatchObject({
      status: 'error',
      error: {
        code: 'precondition_failed', reason: 'external_write',
        details: { gone: [{ target_file_id: read, path: 'r2.md', expected_sha256: sha256('read me\n') }] },
        next_actions: [{ operation: 'palimpsest_workspace_status', params: { path_prefix: 'r2.md' } }, { operation: 'palimpsest_change_discard', params: { candidate } }],
      },
    });
    expect(disk('w2.md')).toBe('write me\n');
    expect((await call('palimpsest_get_target', { target_file_id: written })).version).toBe(0);
    for (const next of r.error.next_actions) expect((await call(next.operation, next.params)).status).toBe('ok');
    expect((await call('palimpsest_workspace_status', { path_prefix: 'r2.md' })).files[0]).toMatchObject({ state: 'missing' });
  });

  it('an unchanged read input is no base change', async () => {
    const written = await bound('w3.md', 'write me\n');
    const read = await bound('r3.md', 'read me\n');
    const r = await apply(await readingCandidate(written, read, 'write'));
    expect(r).toMatchObject({ status: 'ok', receipt: { outcome: 'applied' } });
    expect(r.base_changes).toBeUndefined();
  });
});
