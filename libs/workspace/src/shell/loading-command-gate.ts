import type { CommandDecision, CommandGate, CommandGateContext, InputDecision } from '@palimpsest/core/policy/command-decision';
import { CommandPolicyError } from '@palimpsest/core/policy/command-gate';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { PolicyConfig } from '@palimpsest/core/policy/policy-config';
import { createCommandGate } from './command-gate-factory';

/**
 * The command gate as a context holds it: the shell parser and the policy's examples load once, on the
 * first decision (a process that runs no command never loads the grammar), and every decision waits for them. A policy whose
 * examples fail refuses every command and every input, naming the problems: nothing runs under a policy
 * that did not load.
 */
export function loadingCommandGate(config: PolicyConfig): CommandGate {
  let started: Promise<{ gate: CommandGate; problems: null } | { gate: null; problems: string[] }> | null = null;
  const load = () => (started ??= createCommandGate(config).then(
    (gate) => ({ gate, problems: null }),
    (error: unknown) => ({ gate: null, problems: error instanceof CommandPolicyError ? error.problems : [String(error)] }),
  ));
  const refused = (problems: string[]) =>
    ({ verdict: 'refuse', code: 'FORBIDDEN', rule: 'policy: not loaded', reason: `The command policy did not load (${problems.join('; ')}): no command runs until the operator fixes it.` }) as const;
  return {
    async decide(line: string, policy: OwnerPolicy, context: CommandGateContext): Promise<CommandDecision> {
      const l = await load();
      return l.gate ? l.gate.decide(line, policy, context) : refused(l.problems);
    },
    async decideInput(input: string, running: readonly string[], policy: OwnerPolicy): Promise<InputDecision> {
      const l = await load();
      return l.gate ? l.gate.decideInput(input, running, policy) : refused(l.problems);
    },
  };
}
