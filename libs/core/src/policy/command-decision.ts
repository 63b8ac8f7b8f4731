import type { OwnerPolicy } from './owner-policy';

/**
 * What the owner's policy decides about one command line (or one input sent to a running process),
 * before anything runs. `rule` names what decided: a policy entry (`deny[2]: rm`), a built-in option
 * rule (`git: -c runs programs`), or the mode itself (`mode: read_only`).
 */
export type CommandExec = { argv: readonly string[] } | { shell: string };

export type CommandDecision =
  | { verdict: 'run'; exec: CommandExec; rule: string | null }
  | { verdict: 'approve'; exec: CommandExec; rule: string; reason: string }
  | { verdict: 'refuse'; code: 'FORBIDDEN'; rule: string; reason: string };

export type InputDecision =
  | { verdict: 'send'; rule: string | null }
  | { verdict: 'refuse'; code: 'FORBIDDEN'; rule: string; reason: string };

/** Facts the gate needs from outside: which workspace files an agent wrote through Palimpsest. */
export interface CommandGateContext {
  writtenThroughPalimpsest(relativePath: string): Promise<boolean>;
}

/**
 * The port the command tools ask; the composition root builds it from the policy document with
 * createCommandGate (libs/workspace/src/shell), which loads the shell parser and checks every rule's
 * examples. The decisions themselves are PolicyCommandGate's (command-gate.ts).
 */
export interface CommandGate {
  decide(line: string, policy: OwnerPolicy, context: CommandGateContext): Promise<CommandDecision>;
  decideInput(input: string, running: readonly string[], policy: OwnerPolicy): Promise<InputDecision>;
}
