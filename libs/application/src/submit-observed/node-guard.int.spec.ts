import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

type Answer = Record<string, any>;

/** CRLF on disk: a node's version is over the file's bytes, the target's text is LF; the guard must agree with node_get. */
const SOURCE = '// calc\r\nexport function alpha(x: number) {\r\n  return x + 1;\r\n}\r\n\r\nexport function beta() {\r\n  return 2;\r\n}\r\n';
const ALPHA = 'function:src/calc.ts#alpha';

describe(`a code node's version guards an observed submission on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  let id: string;
  const call = async (name: string, args: unknown) => (await dispatch(h.ctx, name, args)) as Answer;
  const versionOf = async (node: string) => (await call('palimpsest_node_get', { nodes: [node] })).nodes[0].node.version as string;
  const head = async () => {
    const t = await call('palimpsest_get_target', { target_file_id: id });
    return { expected_target_version: t.version as number, expected_current_hash: t.current_hash as string };
  };
  const observeAlpha = async () => (await call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'alpha', kind: 'function' })).observation_id as string;
  const submit = async (observation_id: string, expected_node_version: unknown, match: string, replace: string) =>
    call('palimpsest_submit_observed_operations', { target_file_id: id, intent: 'guarded', observation_id, expected_node_version, operations: [{ op: 'match', match, replace }], ...(await head()) });
  const disk = () => readFileSync(join(h.dir, 'src/calc.ts'), 'utf8');

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-node-guard-');
    writeFileSync(join(h.dir, 'package.json'), '{}\n');
    mkdirSync(join(h.dir, 'src'));
    writeFileSync(join(h.dir, 'src/calc.ts'), SOURCE);
    // Bind the file to a target (an edit outside both functions).
    const bound = await call('edit_file', { path: 'src/calc.ts', oldString: '// calc', newString: '// calculator' });
    expect(bound).toMatchObject({ status: 'ok', version: 1 });
    id = bound.target_file_id;
  });
  afterAll(() => h.dispose());

  it('accepts the guarded edit when only another function changed since the node was read', async () => {
    const read = await versionOf(ALPHA);
    expect(read).toMatch(/^[0-9a-f]{64}$/);
    expect(await call('edit_file', { path: 'src/calc.ts', oldString: 'return 2;', newString: 'return 3;' })).toMatchObject({ status: 'ok' });
    expect(await versionOf(ALPHA)).toBe(read);
    const accepted = await submit(await observeAlpha(), read, 'x + 1', 'x + 10');
    expect(accepted).toMatchObject({ status: 'accepted', version: 3 });
    expect(disk()).toContain('return x + 10;\r\n');
    expect(await versionOf(ALPHA)).not.toBe(read);
  });

  it('refuses it, recorded, with the node and a re-read as the next step, when the guarded function changed; the re-read version is then accepted', async () => {
    const read = await versionOf(ALPHA);
    expect(await call('edit_file', { path: 'src/calc.ts', oldString: 'x + 10', newString: 'x * 10' })).toMatchObject({ status: 'ok' });
    const observation = await observeAlpha();
    const refused = await submit(observation, read, 'x * 10', 'x * 20');
    const now = await versionOf(ALPHA);
    expect(refused).toMatchObject({
      status: 'rejected',
      failure_reason: 'target_hash_mismatch',
      diagnostic: { code: 'node_version_mismatch', path: 'src/calc.ts', node_id: ALPHA, expected_node_version: read, current_node_version: now, observation_id: observation },
      next_actions: [{ operation: 'palimpsest_node_get', params: { nodes: [ALPHA], include: ['body'] } }],
    });
    expect(disk()).toContain('x * 10');
    const log = await call('palimpsest_get_attempt_log', { target_file_id: id, status: 'rejected', detail: true });
    expect(log.entries.map((e: Answer) => [e.attempt_id, e.failure_reason, e.diagnostic?.code])).toEqual([[refused.attempt_id, 'target_hash_mismatch', 'node_version_mismatch']]);
    // The observation was not consumed: the next step's version, with it, is accepted.
    const again = await call(refused.next_actions[0].operation, refused.next_actions[0].params);
    expect(again.nodes[0].node.version).toBe(now);
    expect(await submit(observation, now, 'x * 10', 'x * 20')).toMatchObject({ status: 'accepted' });
    expect(disk()).toContain('return x * 20;\r\n');
    expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', materialized_state_matches: true });
  });

  it('refuses a malformed version before the observation, and the batch form taking one, both recorded', async () => {
    const bad = await submit(await observeAlpha(), 'v1', 'x * 20', 'x * 30');
    expect(bad).toMatchObject({ status: 'rejected', failure_reason: 'context_invalid', diagnostic: { code: 'invalid_node_version', argument: 'expected_node_version' } });
    const bundle = await call('palimpsest_observe_scope', { target_file_id: id, selections: [{ symbol_name: 'alpha' }, { symbol_name: 'beta' }] });
    const batch = await call('palimpsest_submit_observed_operations', {
      target_file_id: id, intent: 'b', observation_bundle_id: bundle.bundle_id, client_request_id: 'node-guard-batch', expected_node_version: 'a'.repeat(64), ...(await head()),
      groups: [{ observation_id: bundle.scopes[0].observation_id, operations: [{ op: 'match', match: 'x * 20', replace: 'x' }] }],
    });
    expect(batch).toMatchObject({ status: 'rejected', diagnostic: { code: 'conflicting_arguments', arguments: ['expected_node_version'] } });
    const log = await call('palimpsest_get_attempt_log', { target_file_id: id, status: 'rejected', detail: true });
    expect(log.entries.map((e: Answer) => e.diagnostic?.code).sort()).toEqual(['conflicting_arguments', 'invalid_node_version', 'node_version_mismatch']);
  });

  it('refuses a guard on a target bound to no workspace file: no code node can name it', async () => {
    const loose = (await call('palimpsest_initialize_target', { filename: 'loose.ts', content: 'export function alpha() {\n  return 1;\n}\n', content_type: 'text/typescript' })).target_file_id;
    const obs = await call('palimpsest_observe_scope', { target_file_id: loose, symbol_name: 'alpha' });
    const t = await call('palimpsest_get_target', { target_file_id: loose });
    const refused = await call('palimpsest_submit_observed_operations', {
      target_file_id: loose, intent: 'x', observation_id: obs.observation_id, expected_node_version: 'a'.repeat(64),
      operations: [{ op: 'match', match: 'return 1', replace: 'return 2' }], expected_target_version: t.version, expected_current_hash: t.current_hash,
    });
    expect(refused).toMatchObject({ status: 'rejected', failure_reason: 'context_invalid', diagnostic: { code: 'node_version_mismatch', path: null, node_id: null } });
  });
});
