import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandDecision, CommandGate, CommandGateContext } from '@palimpsest/core/policy/command-decision';
import { parsePolicyConfig } from '@palimpsest/core/policy/policy-config';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { createCommandGate } from './command-gate-factory';
import { BYPASS_SPELLING, BYPASS_SYNTAX, type BypassCase } from './test-support/bypass-cases';
import { BYPASS_OPTIONS, BYPASS_WRITTEN } from './test-support/bypass-option-cases';
import { EVERYDAY, TYPICAL_ALLOW } from './test-support/everyday-cases';

/**
 * The policy corpus: every bypass class is refused with the rule that decided, and nothing runs. Each
 * line would create `marker` (or remove `victim`) in its own copy of a small git project; the gate's
 * decision goes to a real executor that runs only a `run` verdict, and the marker is looked for after.
 * Cases marked `control` then run through a real shell to prove the line does what the corpus says.
 */

class WrittenFiles implements CommandGateContext {
  constructor(private readonly paths: ReadonlySet<string>) {}
  async writtenThroughPalimpsest(path: string): Promise<boolean> {
    return this.paths.has(path);
  }
}

const FILES: Record<string, string> = {
  'hello.txt': 'hello\n',
  'hello.js': '',
  'hello.py': '',
  'evil.sh': '#!/bin/sh\ntouch marker\n',
  'evil.js': "require('fs').writeFileSync('marker', '');\n",
  'evil.py': "open('marker', 'w')\n",
  'evil.mk': 'evil:\n\ttouch marker\n',
  Makefile: 'evil:\n\ttouch marker\nhello:\n\t@echo hello\n',
  'package.json': JSON.stringify({ name: 'corpus', version: '1.0.0', scripts: { evil: 'touch marker', test: 'touch marker', hello: 'echo hi' } }),
  '.npmrc': '',
  'script.sed': '1e touch marker\n',
  'prog.awk': 'BEGIN { system("touch marker") }\n',
  touch: '#!/bin/sh\nexec /usr/bin/touch "$@"\n',
  'victim/file': 'keep me\n',
};

let template: string;
let gate: CommandGate;
let policies: Record<'list' | 'deny' | 'typical', OwnerPolicy>;

function sh(line: string, cwd: string): void {
  spawnSync('bash', ['-c', line], { cwd, input: '', timeout: 30_000, stdio: ['pipe', 'ignore', 'ignore'] });
}

beforeAll(async () => {
  template = mkdtempSync(join(tmpdir(), 'palimpsest-corpus-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(template, path, '..'), { recursive: true });
    writeFileSync(join(template, path), text);
  }
  for (const exe of ['evil.sh', 'touch']) chmodSync(join(template, exe), 0o755);
  sh('git init -q && git config user.email c@example.invalid && git config user.name corpus && git add hello.txt && git commit -qm one && echo more >> hello.txt && git commit -qam two && tar -cf hello.tar hello.txt', template);
  const parsed = parsePolicyConfig({
    profiles: {
      list: { mode: 'allow_list', allow: [...TYPICAL_ALLOW, 'git', 'perl', 'ruby', 'sh', 'bash', 'dash', 'npm', 'npx', 'timeout', 'nice', 'env', './evil.sh'], deny: ['rm -rf'] },
      deny: { mode: 'allow_all', deny: ['touch', 'rm -rf'] },
      typical: { mode: 'allow_list', allow: TYPICAL_ALLOW, deny: ['rm -rf', 'git push --force', 'git reset --hard'] },
    },
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  gate = await createCommandGate(parsed.value);
  const { list, deny, typical } = parsed.value.profiles;
  policies = { list, deny, typical };
});

afterAll(() => rmSync(template, { recursive: true, force: true }));

/** The executor the command tools stand for: it runs a line only when the gate said run. */
function attempt(decision: CommandDecision, cwd: string): void {
  if (decision.verdict !== 'run') return;
  if ('argv' in decision.exec) spawnSync(decision.exec.argv[0], decision.exec.argv.slice(1), { cwd, input: '', timeout: 30_000 });
  else sh(decision.exec.shell, cwd);
}

function caseDir(c: BypassCase): string {
  const dir = mkdtempSync(join(tmpdir(), 'palimpsest-case-'));
  cpSync(template, dir, { recursive: true });
  if (c.written?.includes('.git/hooks/pre-commit')) {
    writeFileSync(join(dir, '.git/hooks/pre-commit'), '#!/bin/sh\ntouch marker\n');
    chmodSync(join(dir, '.git/hooks/pre-commit'), 0o755);
  }
  return dir;
}

const ALL: BypassCase[] = [...BYPASS_SYNTAX, ...BYPASS_SPELLING, ...BYPASS_OPTIONS, ...BYPASS_WRITTEN];

describe('the command policy corpus', () => {
  it('holds at least 100 bypass cases and 50 everyday commands', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(100);
    expect(EVERYDAY.length).toBeGreaterThanOrEqual(50);
  });

  it.each(ALL.map((c) => [c.line.replace(/\n/g, '\\n'), c] as const))('refuses %s with the rule named, and nothing runs', async (_, c) => {
    const dir = caseDir(c);
    try {
      const marker = join(dir, 'marker');
      const victim = join(dir, 'victim');
      const line = c.line.replace(/\{M\}/g, marker).replace(/\{V\}/g, victim);
      const decision = await gate.decide(line, policies[c.policy ?? 'list'], new WrittenFiles(new Set(c.written ?? [])));
      attempt(decision, dir);
      expect({ verdict: decision.verdict, rule: decision.rule }).toEqual({ verdict: 'refuse', rule: c.rule });
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(victim)).toBe(true);
      if (decision.verdict === 'refuse') expect(decision.code).toBe('FORBIDDEN');
      if (c.control) {
        sh(line, dir);
        expect(existsSync(marker) || !existsSync(victim)).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(EVERYDAY.map((c) => [c.line, c] as const))('runs %s as argv under the typical allow list', async (_, c) => {
    const decision = await gate.decide(c.line, policies.typical, new WrittenFiles(new Set()));
    expect(decision).toMatchObject({ verdict: 'run', rule: `allow[${TYPICAL_ALLOW.indexOf(c.rule)}]: ${c.rule}` });
    if (decision.verdict === 'run') expect('argv' in decision.exec).toBe(true);
  });

  it('sends a file written through Palimpsest to a person under approve, and refuses input under a list', async () => {
    const approving = { ...policies.list, approve: true };
    const written = new WrittenFiles(new Set(['package.json', 'evil.sh']));
    expect(await gate.decide('npm run evil', approving, written)).toMatchObject({ verdict: 'approve', rule: 'written: package.json', exec: { argv: ['npm', 'run', 'evil'] } });
    expect(await gate.decide('./evil.sh', approving, written)).toMatchObject({ verdict: 'approve', rule: 'written: evil.sh' });
    expect(await gate.decide('npm run evil', approving, new WrittenFiles(new Set()))).toMatchObject({ verdict: 'run', rule: expect.stringContaining('npm') });
    const dir = caseDir({ line: '', rule: '' });
    try {
      const input = `open(${JSON.stringify(join(dir, 'marker'))}, 'w')\n`;
      const sent = await gate.decideInput(input, ['python3', '-i'], policies.list);
      if (sent.verdict === 'send') spawnSync('python3', ['-i'], { cwd: dir, input, timeout: 30_000 });
      expect(sent).toMatchObject({ verdict: 'refuse', rule: 'input: a list is in force' });
      expect(existsSync(join(dir, 'marker'))).toBe(false);
      spawnSync('python3', ['-i'], { cwd: dir, input, timeout: 30_000 });
      expect(existsSync(join(dir, 'marker'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await gate.decideInput('q\n', ['npm', 'test'], { ...policies.deny, deny: [] })).toEqual({ verdict: 'send', rule: null });
  });
});
