import type { CommandDecision, CommandExec, CommandGate, CommandGateContext, InputDecision } from './command-decision';
import type { PolicyHit, ShellParser } from './command-line';
import { programCheck } from './command-option-rules';
import { allowMatches, denyMatches, parseCommandRule, ruleLabel, type CommandRule } from './command-rule';
import { unwrapCommand } from './command-wrappers';
import type { OwnerPolicy } from './owner-policy';

/**
 * The owner's policy over command lines. A list is in force under allow_list or when any deny rule is
 * set; then the line must parse to one plain command (it runs as argv, without a shell), the deny rules
 * and the built-in option rules are checked on it and on every program it wraps, and allow_list needs
 * an allow rule for the program that actually runs. A line that runs a file written through Palimpsest
 * (a script, package.json, a Makefile, a hook, .git/config) needs a person under `approve`, and is
 * refused under a list without it. With no list, `shell: true` lets a line run through the shell and
 * `approve: true` puts every line not pre-approved by an allow rule before a person.
 */

export class CommandPolicyError extends Error {
  constructor(readonly problems: string[]) {
    super(`the command policy is invalid:\n  ${problems.join('\n  ')}`);
  }
}

const refuse = (hit: PolicyHit): CommandDecision => ({ verdict: 'refuse', code: 'FORBIDDEN', rule: hit.rule, reason: hit.reason });
const who = (policy: OwnerPolicy) => `policy ${policy.name ?? '(token)'}`;

export function listInForce(policy: OwnerPolicy): boolean {
  return policy.mode === 'allow_list' || policy.deny.length > 0;
}

function compile(kind: 'allow' | 'deny', texts: readonly string[]): CommandRule[] {
  return texts.flatMap((text, index) => {
    const parsed = parseCommandRule(text);
    return parsed.ok ? [{ kind, index, text, program: parsed.program, args: parsed.args }] : [];
  });
}

/** The argv a rule is held against: every program of the wrapper chain for deny, the one that runs for allow. */
function ruleHolds(rule: CommandRule, argv: readonly string[]): boolean {
  const { chain } = unwrapCommand(argv);
  return rule.kind === 'deny' ? chain.some((a) => denyMatches(rule, a)) : allowMatches(rule, chain[chain.length - 1]);
}

export class PolicyCommandGate implements CommandGate {
  private readonly compiled = new WeakMap<OwnerPolicy, { allow: CommandRule[]; deny: CommandRule[]; problems: string[] }>();

  constructor(private readonly parser: ShellParser) {}

  /** The examples of a policy's rules that fail, as problems of its load (cached per policy object). */
  problems(policy: OwnerPolicy): string[] {
    return this.rules(policy).problems;
  }

  private rules(policy: OwnerPolicy): { allow: CommandRule[]; deny: CommandRule[]; problems: string[] } {
    let found = this.compiled.get(policy);
    if (!found) {
      const allow = compile('allow', policy.allow);
      const deny = compile('deny', policy.deny);
      found = { allow, deny, problems: this.exampleProblems(policy, [...allow, ...deny]) };
      this.compiled.set(policy, found);
    }
    return found;
  }

  private exampleProblems(policy: OwnerPolicy, rules: readonly CommandRule[]): string[] {
    const problems: string[] = [];
    for (const examples of policy.examples ?? []) {
      const rule = rules.find((r) => r.kind === examples.kind && r.text === examples.rule);
      if (!rule) continue;
      const check = (line: string, want: boolean) => {
        const parsed = this.parser.parse(line);
        if (parsed.kind === 'shell') problems.push(`${ruleLabel(rule)}: example ${JSON.stringify(line)} is not one plain command (${parsed.construct})`);
        else if (ruleHolds(rule, parsed.argv) !== want) problems.push(`${ruleLabel(rule)}: example ${JSON.stringify(line)} ${want ? 'must match but does not' : 'must not match but does'}`);
      };
      examples.match.forEach((line) => check(line, true));
      examples.not_match.forEach((line) => check(line, false));
    }
    return problems;
  }

  async decide(line: string, policy: OwnerPolicy, context: CommandGateContext): Promise<CommandDecision> {
    if (policy.mode === 'read_only') return refuse({ rule: 'mode: read_only', reason: `${who(policy)} is read_only: no command runs.` });
    const { problems } = this.rules(policy);
    if (problems.length) return refuse({ rule: 'policy: examples', reason: `${who(policy)} does not hold its own examples: ${problems.join('; ')}` });
    const listed = listInForce(policy);
    if (!listed && policy.shell) return this.unlisted({ shell: line }, [], policy, context);
    const parsed = this.parser.parse(line);
    if (parsed.kind === 'shell') {
      const why = listed ? 'a list of commands is in force, so shell syntax is refused' : `${who(policy)} does not allow shell syntax`;
      return refuse({ rule: `shell: ${parsed.construct}`, reason: `${why} (${parsed.construct}); send one plain command.` });
    }
    return listed ? this.listed(parsed.argv, policy, context) : this.unlisted({ argv: parsed.argv }, parsed.argv, policy, context);
  }

  private async unlisted(exec: CommandExec, argv: readonly string[], policy: OwnerPolicy, context: CommandGateContext): Promise<CommandDecision> {
    if (!policy.approve) return { verdict: 'run', exec, rule: null };
    const written = argv.length ? await firstWritten(unwrapCommand(argv).chain.flatMap((a) => programCheck(a).files), context) : null;
    if (written !== null) return { verdict: 'approve', exec, rule: `written: ${written}`, reason: writtenReason(written) };
    return { verdict: 'approve', exec, rule: 'approve: true', reason: `${who(policy)} has a person confirm every command it does not allow by name.` };
  }

  private async listed(argv: string[], policy: OwnerPolicy, context: CommandGateContext): Promise<CommandDecision> {
    const rules = this.rules(policy);
    const { chain, hit } = unwrapCommand(argv);
    for (const rule of rules.deny) {
      if (chain.some((a) => denyMatches(rule, a))) return refuse({ rule: ruleLabel(rule), reason: `${who(policy)} denies ${rule.text}.` });
    }
    if (hit) return refuse(hit);
    const files: string[] = [];
    for (const a of chain) {
      const check = programCheck(a);
      if (check.hit) return refuse(check.hit);
      files.push(...check.files);
    }
    const runs = chain[chain.length - 1];
    const allowed = rules.allow.find((rule) => allowMatches(rule, runs)) ?? null;
    if (policy.mode === 'allow_list' && !allowed) {
      return refuse({ rule: 'mode: allow_list', reason: `${who(policy)} allows only ${policy.allow.join(', ') || '(nothing)'}; ${runs.join(' ')} is not among them.` });
    }
    const exec: CommandExec = { argv };
    const written = await firstWritten(files, context);
    if (written !== null) {
      if (policy.approve) return { verdict: 'approve', exec, rule: `written: ${written}`, reason: writtenReason(written) };
      return refuse({ rule: `written: ${written}`, reason: `${writtenReason(written)} ${who(policy)} has no approve: true, so it is refused.` });
    }
    if (policy.approve && !allowed) return { verdict: 'approve', exec, rule: 'approve: true', reason: `${who(policy)} has a person confirm every command it does not allow by name.` };
    return { verdict: 'run', exec, rule: allowed ? ruleLabel(allowed) : null };
  }

  async decideInput(_input: string, running: readonly string[], policy: OwnerPolicy): Promise<InputDecision> {
    if (policy.mode === 'read_only') return { verdict: 'refuse', code: 'FORBIDDEN', rule: 'mode: read_only', reason: `${who(policy)} is read_only.` };
    if (!listInForce(policy)) return { verdict: 'send', rule: null };
    return {
      verdict: 'refuse',
      code: 'FORBIDDEN',
      rule: 'input: a list is in force',
      reason: `input to a running program (${running[0] ?? 'a process'}) can be code or commands no rule can see; ${who(policy)} has a list in force, so it is refused.`,
    };
  }
}

async function firstWritten(files: readonly string[], context: CommandGateContext): Promise<string | null> {
  const unique = [...new Set(files)];
  const written = await Promise.all(unique.map((f) => context.writtenThroughPalimpsest(f)));
  return unique.find((_, i) => written[i]) ?? null;
}

function writtenReason(path: string): string {
  return `the line runs ${path}, which was written through Palimpsest: what it runs was decided by an agent, not by the owner.`;
}
