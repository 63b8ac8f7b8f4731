import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALLOW_ALL, READ_ONLY, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../../test-support/app-harness';
import { candidateCalls, expectOk } from '../test-support/candidate-harness';

const NODE = JSON.stringify(process.execPath);
const POLICY = `
profiles:
  strict: { mode: allow_list, allow: [all-ok] }
  shelly: { mode: allow_all, shell: true }
checks:
  all-ok:
    argv: [${NODE}, -e, "const fs=require('fs');const bad=process.argv.slice(1).filter(f=>!fs.readFileSync(f,'utf8').includes('ok'));console.log('env', process.env.DATABASE_URL === undefined ? 'clean' : 'leaked');if(bad.length){console.error('missing ok:',bad.join(','));process.exit(1)}", "{files}"]
    extensions: [.txt]
  slow: { argv: [${NODE}, -e, "setTimeout(()=>{},20000)"], timeout_ms: 300 }
  noisy: { argv: [${NODE}, -e, "process.stdout.write('x'.repeat(100000))"], max_output_bytes: 1000 }
  missing: { argv: [/nonexistent/program] }
  lines: { command: "cat {files} | wc -l", shell: true }
`;

describe(`palimpsest_check_run on ${describeBackend}`, () => {
  let h: AppHarness;
  let dir: string;
  const run = (policy: OwnerPolicy, candidate: string, checks: string[]) => candidateCalls(h, policy).call('palimpsest_check_run', { candidate, checks });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-policy-'));
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    // its app context reads the policy document once, as a process does at start
    h = await createAppHarness({ PALIMPSEST_POLICY_FILE: join(dir, 'policy.yaml'), PATH: process.env.PATH });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await h.dispose();
  });

  async function candidateOf(files: [string, string, string][]): Promise<string> {
    const ids = [];
    for (const [name, text] of files) ids.push(await h.target(text, name));
    const c = candidateCalls(h);
    const noOp = { kind: 'span', target_file_id: ids[0], start: 0, end: 0, expected_text: '', replace: '' };
    return expectOk(await c.propose(ids.map((id) => [id, 0] as [string, number]), [noOp])).candidate.id;
  }

  it('built-in checks by content type: a failing one is a result with ok: false, recorded on the version', async () => {
    const id = await candidateOf([['a.json', '{"a": 1,}\n', ''], ['b.yaml', 'a: [1\n', ''], ['c.md', '# ok\n', '']]);
    const r = expectOk(await run(ALLOW_ALL, id, ['utf8', 'json', 'yaml']));
    expect(r.ok).toBe(false);
    const [utf8, json, yaml] = r.checks;
    expect(utf8).toMatchObject({ check: 'utf8', status: 'passed', ok: true });
    expect(utf8.targets).toHaveLength(3);
    expect(json).toMatchObject({ check: 'json', status: 'failed', ok: false, targets: [{ ok: false, line: 1 }] });
    expect(yaml).toMatchObject({ check: 'yaml', status: 'failed', ok: false, targets: [{ ok: false }] });
    expect(await h.count('SELECT count(*) FROM candidate_checks WHERE candidate_id = $1 AND candidate_version = 1', [id])).toBe(3);
    const none = expectOk(await run(ALLOW_ALL, await candidateOf([['n.md', 'text\n', '']]), ['json']));
    expect(none.checks[0]).toMatchObject({ status: 'passed', reason: 'no_matching_targets', targets: [] });
  });

  it('runs an argv command check on the candidate files, with a clean environment', async () => {
    const good = expectOk(await run(ALLOW_ALL, await candidateOf([['a.txt', 'ok 1\n', ''], ['b.txt', 'ok 2\n', ''], ['skip.md', 'nope\n', '']]), ['all-ok']));
    expect(good).toMatchObject({ ok: true, checks: [{ check: 'all-ok', kind: 'command', status: 'passed', output: { exit_code: 0, timed_out: false } }] });
    expect(good.checks[0].output.stdout).toBe('env clean\n');
    expect(good.checks[0].targets).toHaveLength(2);
    const bad = expectOk(await run(ALLOW_ALL, await candidateOf([['a.txt', 'ok\n', ''], ['b.txt', 'bad\n', '']]), ['all-ok']));
    expect(bad).toMatchObject({ ok: false, checks: [{ status: 'failed', reason: 'exit_status', output: { exit_code: 1 } }] });
    expect(bad.checks[0].output.stderr).toBe('missing ok: b.txt\n');
  });

  it('bounds time and output; a program that cannot start is unavailable, not an error', async () => {
    const id = await candidateOf([['a.txt', 'ok\n', '']]);
    const started = Date.now();
    const r = expectOk(await run(ALLOW_ALL, id, ['slow', 'noisy', 'missing']));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.checks[0]).toMatchObject({ status: 'unavailable', ok: false, reason: 'timeout', output: { timed_out: true } });
    expect(r.checks[1]).toMatchObject({ status: 'passed', output: { truncated: true } });
    expect(r.checks[1].output.stdout).toHaveLength(1000);
    expect(r.checks[2]).toMatchObject({ status: 'unavailable', ok: false, reason: 'spawn_failed' });
  });

  it('follows the caller policy: allow_list, shell, read_only; unknown checks are invalid', async () => {
    const id = await candidateOf([['a.txt', 'ok\n', '']]);
    const strict = { ...ALLOW_ALL, name: 'strict', mode: 'allow_list' as const, allow: ['all-ok'] };
    expect((await run(strict, id, ['noisy'])).error).toMatchObject({ code: 'permission_denied', reason: 'policy', details: { rule: 'check_not_allowed', answer: 'FORBIDDEN' } });
    expectOk(await run(strict, id, ['all-ok', 'utf8']));
    expect((await run(ALLOW_ALL, id, ['lines'])).error).toMatchObject({ code: 'permission_denied', details: { rule: 'shell_not_allowed' } });
    const shelled = expectOk(await run({ ...ALLOW_ALL, shell: true }, id, ['lines']));
    expect(shelled.checks[0].output.stdout.trim()).toBe('1');
    expect((await run(READ_ONLY, id, ['utf8'])).error).toMatchObject({ code: 'permission_denied', reason: 'policy', details: { rule: 'read_only' } });
    expect((await run(ALLOW_ALL, id, ['lint'])).error).toMatchObject({ code: 'invalid_arguments', reason: 'unknown_check' });
  });
});
