import { allowMatches, denyMatches, parseCommandRule, type CommandRule } from './command-rule';
import { parseRuleEntries } from './command-rule-entries';
import { unwrapCommand } from './command-wrappers';
import { parsePolicy } from './owner-policy';

const rule = (kind: 'allow' | 'deny', text: string): CommandRule => {
  const parsed = parseCommandRule(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return { kind, index: 0, text, program: parsed.program, args: parsed.args };
};
const words = (line: string) => line.split(' ');

describe('command rules', () => {
  it('deny holds under any flag order, spelling, path or case of the program', () => {
    const rmrf = rule('deny', 'rm -rf');
    for (const line of ['rm -rf x', 'rm -fr x', 'rm -r -f x', 'rm -f -R x', 'rm --recursive --force x', 'rm --force --rec x', 'rm -vfR x', '/bin/rm -rf x', './RM -rf x', '../../usr/bin/rm -r -f x']) {
      expect([line, denyMatches(rmrf, words(line))]).toEqual([line, true]);
    }
    for (const line of ['rm -r x', 'rm -f x', 'rm -- -rf', 'rmdir -rf x', 'echo rm -rf']) expect([line, denyMatches(rmrf, words(line))]).toEqual([line, false]);
  });

  it('deny matches other words in order, paths normalized, and git force pushes by any spelling', () => {
    const root = rule('deny', 'rm -rf /');
    expect(denyMatches(root, words('rm -rf //'))).toBe(true);
    expect(denyMatches(root, words('rm -fr /./'))).toBe(true);
    expect(denyMatches(root, words('rm -rf /tmp'))).toBe(false);
    const force = rule('deny', 'git push --force');
    for (const line of ['git push -f', 'git push origin main --force', 'git push --force-with-lease', 'git push origin +main', 'git push --forc']) {
      expect([line, denyMatches(force, words(line))]).toEqual([line, true]);
    }
    expect(denyMatches(force, words('git push origin main'))).toBe(false);
    expect(denyMatches(force, words('git fetch --force'))).toBe(false);
  });

  it('allow is narrow: the program word as written and the rule words as the first arguments', () => {
    const status = rule('allow', 'git status');
    expect(allowMatches(status, words('git status --short'))).toBe(true);
    expect(allowMatches(status, words('git statusx'))).toBe(false);
    expect(allowMatches(status, words('/usr/bin/git status'))).toBe(false);
    expect(allowMatches(status, words('git -C x status'))).toBe(false);
    expect(allowMatches(rule('allow', './build.sh'), words('build.sh'))).toBe(true);
    expect(allowMatches(rule('allow', '/usr/bin/make'), words('/usr//bin/make test'))).toBe(true);
  });

  it('refuses malformed rules with the reason, never skipping them', () => {
    expect(parseCommandRule('rm; ls')).toMatchObject({ ok: false });
    expect(parseCommandRule("rm 'x'")).toMatchObject({ ok: false });
    expect(parseCommandRule('-rf')).toMatchObject({ ok: false });
    expect(parseCommandRule('   ')).toMatchObject({ ok: false });
    const problems: string[] = [];
    const parsed = parseRuleEntries('deny', ['rm -rf', { rule: 'ls *' }, { rule: 'x', match: 'x', extra: 1 }, 7], 'p.deny', problems);
    expect(parsed.rules).toEqual(['rm -rf', 'ls *', 'x']);
    expect(problems).toEqual([
      'p.deny[1] "ls *" has "*": a rule is plain words (a program and its arguments), without quotes, globs or shell syntax',
      'p.deny[2].extra is not a rule field (rule, match, not_match)',
      'p.deny[2].match must be a list of command lines',
      'p.deny[3] must be a command rule (a program and its arguments, at most 128 characters) or { rule, match, not_match }',
    ]);
  });

  it('keeps a policy of plain names as it was, and carries the examples of object entries', () => {
    expect(parsePolicy({ mode: 'allow_list', allow: ['wc', 'wc'] })).toEqual({
      ok: true,
      value: { name: null, mode: 'allow_list', allow: ['wc'], deny: [], shell: false, approve: false, tools: null, require_checks: [] },
    });
    const withExamples = parsePolicy({ mode: 'allow_all', deny: [{ rule: 'rm -rf', match: ['rm -fr x'], not_match: ['rm x'] }] });
    expect(withExamples).toMatchObject({ ok: true, value: { deny: ['rm -rf'], examples: [{ kind: 'deny', index: 0, rule: 'rm -rf', match: ['rm -fr x'], not_match: ['rm x'] }] } });
  });
});

describe('wrappers', () => {
  it('unwraps the programs that run another one, and refuses the ones no rule can follow', () => {
    expect(unwrapCommand(words('timeout -s KILL 5 nice -n 3 env -i npm test'))).toEqual({
      chain: [words('timeout -s KILL 5 nice -n 3 env -i npm test'), words('nice -n 3 env -i npm test'), words('env -i npm test'), words('npm test')],
      hit: null,
    });
    expect(unwrapCommand(words('env')).hit).toBeNull();
    expect(unwrapCommand(words('env X=1 ls')).hit?.rule).toBe('env: NAME=value');
    expect(unwrapCommand(words('env --chdir=/ ls')).hit?.rule).toBe('env: --chdir');
    expect(unwrapCommand(words('timeout --weird 5 ls')).hit?.rule).toBe('timeout: --weird');
    expect(unwrapCommand(words('/usr/bin/sudo ls')).hit?.rule).toBe('sudo: runs another program');
    expect(unwrapCommand(words('cd /')).hit?.rule).toBe('cd: shell builtin');
    expect(unwrapCommand(['constructor']).hit).toBeNull();
    expect(denyMatches(rule('deny', 'rm'), ['constructor'])).toBe(false);
  });
});
