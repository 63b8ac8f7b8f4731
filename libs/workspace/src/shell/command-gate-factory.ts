import type { CommandGate } from '@palimpsest/core/policy/command-decision';
import { CommandPolicyError, PolicyCommandGate } from '@palimpsest/core/policy/command-gate';
import type { PolicyConfig } from '@palimpsest/core/policy/policy-config';
import { createShellParser } from './command-line-reader';

/**
 * The command gate for a policy document, as the composition root builds it: the shell parser loads,
 * and every profile's rule examples are checked against it. A failing example fails the build with
 * each problem named (CommandPolicyError); a policy handed to the gate later (a token's) is checked
 * on first use, and refuses every command while its examples fail.
 */
export async function createCommandGate(config: PolicyConfig): Promise<CommandGate> {
  const gate = new PolicyCommandGate(await createShellParser());
  const problems = Object.entries(config.profiles).flatMap(([name, policy]) => gate.problems(policy).map((p) => `profiles.${name}: ${p}`));
  if (problems.length) throw new CommandPolicyError(problems);
  return gate;
}
