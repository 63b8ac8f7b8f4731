import type { CommandGateContext } from '@palimpsest/core/policy/command-decision';
import { CommandPolicyError } from '@palimpsest/core/policy/command-gate';
import { ALLOW_ALL, READ_ONLY, parsePolicy, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { parsePolicyConfig, type PolicyConfig } from '@palimpsest/core/policy/policy-config';
import { createCommandGate } from './command-gate-factory';

/** The gate as the composition root builds it: examples are checked at load, and the modes decide as documented. */

const nothingWritten: CommandGateContext = { writtenThroughPalimpsest: async () => false };

function config(profiles: Record<string, unknown>): PolicyConfig {
  const parsed = parsePolicyConfig({ profiles });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.value;
}

function policy(input: unknown): OwnerPolicy {
  const parsed = parsePolicy(input, 'p');
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.value;
}

describe('loading a command policy', () => {
  it('loads when every example holds', async () => {
    const loaded = config({
        guarded: {
          mode: 'allow_list',
          allow: [{ rule: 'git status', match: ['git status --short', 'timeout 5 git status'], not_match: ['git statusx', '/usr/bin/git status'] }, 'npm test'],
          deny: [{ rule: 'rm -rf', match: ['rm -fr /', "'/bin/rm' --recursive --force x", 'nice rm -r -f x'], not_match: ['rm -r x', 'rm -- -rf'] }],
        },
      });
    const gate = await createCommandGate(loaded);
    expect(await gate.decide('git status --short', loaded.profiles.guarded!, nothingWritten)).toMatchObject({ verdict: 'run', exec: { argv: ['git', 'status', '--short'] } });
  });

  it('fails the load on an example that does not hold, naming each one', async () => {
    const load = createCommandGate(
      config({
        loose: { mode: 'allow_all', deny: [{ rule: 'rm -rf', match: ['rm -r x', 'rm -rf x; ls'], not_match: ['rm -fr x'] }] },
      }),
    );
    await expect(load).rejects.toBeInstanceOf(CommandPolicyError);
    await expect(load).rejects.toMatchObject({
      problems: [
        'profiles.loose: deny[0]: rm -rf: example "rm -r x" must match but does not',
        'profiles.loose: deny[0]: rm -rf: example "rm -rf x; ls" is not one plain command (separator (; or newline))',
        'profiles.loose: deny[0]: rm -rf: example "rm -fr x" must not match but does',
      ],
    });
  });

  it('fails the load on a malformed rule: the document does not parse', () => {
    const parsed = parsePolicyConfig({ profiles: { bad: { mode: 'allow_list', allow: ['npm test', 'ls | wc', { rule: 'x', match: [1] }] } } });
    expect(parsed).toEqual({
      ok: false,
      problems: [
        'profiles.bad.allow[1] "ls | wc" has "|": a rule is plain words (a program and its arguments), without quotes, globs or shell syntax',
        'profiles.bad.allow[2].match must be a list of command lines',
      ],
    });
  });

  it('refuses every command under a policy handed later whose examples fail', async () => {
    const gate = await createCommandGate(config({}));
    const token = policy({ mode: 'allow_list', allow: [{ rule: 'npm test', match: ['npm run test'] }] });
    expect(await gate.decide('npm test', token, nothingWritten)).toMatchObject({ verdict: 'refuse', rule: 'policy: examples' });
  });
});

describe('the modes', () => {
  it('read_only runs nothing; allow_all without a list runs argv, or the shell line with shell: true', async () => {
    const gate = await createCommandGate(config({}));
    expect(await gate.decide('ls', READ_ONLY, nothingWritten)).toMatchObject({ verdict: 'refuse', code: 'FORBIDDEN', rule: 'mode: read_only' });
    expect(await gate.decide('ls -la', ALLOW_ALL, nothingWritten)).toEqual({ verdict: 'run', exec: { argv: ['ls', '-la'] }, rule: null });
    expect(await gate.decide('ls | wc -l', ALLOW_ALL, nothingWritten)).toMatchObject({ verdict: 'refuse', rule: 'shell: pipe' });
    const shell = { ...ALLOW_ALL, shell: true };
    expect(await gate.decide('ls | wc -l', shell, nothingWritten)).toEqual({ verdict: 'run', exec: { shell: 'ls | wc -l' }, rule: null });
    expect(await gate.decide('ls | wc -l', { ...shell, approve: true }, nothingWritten)).toMatchObject({ verdict: 'approve', exec: { shell: 'ls | wc -l' }, rule: 'approve: true' });
    expect(await gate.decide('ls | wc -l', { ...shell, deny: ['rm'] }, nothingWritten)).toMatchObject({ verdict: 'refuse', rule: 'shell: pipe' });
  });

  it('allow_list with approve: listed lines run, a written file goes to a person, unlisted lines stay refused', async () => {
    const gate = await createCommandGate(config({}));
    const reviewed = policy({ mode: 'allow_list', allow: ['npm test', 'make'], approve: true });
    const makefileWritten: CommandGateContext = { writtenThroughPalimpsest: async (path) => path === 'Makefile' };
    expect(await gate.decide('npm test', reviewed, makefileWritten)).toEqual({ verdict: 'run', exec: { argv: ['npm', 'test'] }, rule: 'allow[0]: npm test' });
    expect(await gate.decide('make build', reviewed, makefileWritten)).toMatchObject({ verdict: 'approve', rule: 'written: Makefile' });
    expect(await gate.decide('ls', reviewed, makefileWritten)).toMatchObject({ verdict: 'refuse', rule: 'mode: allow_list' });
    const open = policy({ mode: 'allow_all', approve: true });
    expect(await gate.decide('ls', open, makefileWritten)).toMatchObject({ verdict: 'approve', rule: 'approve: true' });
    expect(await gate.decide('make', open, makefileWritten)).toMatchObject({ verdict: 'approve', rule: 'written: Makefile' });
  });
});
