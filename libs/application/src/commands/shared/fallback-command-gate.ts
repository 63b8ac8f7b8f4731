import type { CommandDecision, CommandGate, InputDecision } from '@palimpsest/core/policy/command-decision';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';

/**
 * FALLBACK command gate, until the shell-parsing gate is composed in its place. Conservative by
 * construction: a line is split on whitespace into an argv run without a shell, and any line holding a
 * shell metacharacter or a quote is refused outright, so nothing it cannot read plainly ever runs.
 * Honours read_only (refuse), deny (refuse, matched on the program's name whatever its directory, or on
 * the leading words), allow_list (only lines whose leading words are an allow entry) and approve.
 */

const SHELL_SYNTAX = /[;&|<>()$`\\"'*?[\]{}~#!\n\r]/;

const words = (line: string): string[] => line.trim().split(/\s+/).filter((w) => w.length > 0);
const programName = (program: string): string => program.slice(program.lastIndexOf('/') + 1);

/** Whether an entry's words lead the argv (the program compared by name when the entry names a bare program). */
function leads(entry: string, argv: readonly string[]): boolean {
  const want = words(entry);
  if (want.length === 0 || want.length > argv.length) return false;
  const program = want[0].includes('/') ? argv[0] : programName(argv[0]);
  return program === want[0] && want.every((w, i) => i === 0 || argv[i] === w);
}

const refuse = (rule: string, reason: string): CommandDecision => ({ verdict: 'refuse', code: 'FORBIDDEN', rule, reason });

export class FallbackCommandGate implements CommandGate {
  async decide(line: string, policy: OwnerPolicy): Promise<CommandDecision> {
    if (policy.mode === 'read_only') return refuse('mode: read_only', 'The policy is read only: no command runs.');
    const shell = SHELL_SYNTAX.exec(line);
    if (shell) return refuse('fallback: shell syntax', `Shell syntax (${JSON.stringify(shell[0])}) is refused: send one plain command, its words separated by spaces.`);
    const argv = words(line);
    if (argv.length === 0) return refuse('fallback: empty', 'The command line is empty.');
    const denied = policy.deny.findIndex((entry) => leads(entry, argv));
    if (denied >= 0) return refuse(`deny[${denied}]: ${policy.deny[denied]}`, `${JSON.stringify(policy.deny[denied])} is denied by the policy.`);
    let rule: string | null = null;
    if (policy.mode === 'allow_list') {
      const allowed = policy.allow.findIndex((entry) => leads(entry, argv));
      if (allowed < 0) return refuse('mode: allow_list', `${JSON.stringify(argv[0])} is not on the policy's allow list.`);
      rule = `allow[${allowed}]: ${policy.allow[allowed]}`;
    }
    if (policy.approve) return { verdict: 'approve', exec: { argv }, rule: 'approve', reason: 'The policy asks a person to confirm every command.' };
    return { verdict: 'run', exec: { argv }, rule };
  }

  async decideInput(_input: string, _running: readonly string[], policy: OwnerPolicy): Promise<InputDecision> {
    if (policy.mode === 'read_only') return { verdict: 'refuse', code: 'FORBIDDEN', rule: 'mode: read_only', reason: 'The policy is read only.' };
    if (policy.mode === 'allow_list') return { verdict: 'refuse', code: 'FORBIDDEN', rule: 'mode: allow_list', reason: 'Under an allow list, input to a running process is refused: it could be any command.' };
    return { verdict: 'send', rule: null };
  }
}
