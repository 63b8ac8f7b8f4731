import type { OwnerPolicy } from './owner-policy';

/** What the policy decides about one operation or one command check. Pure; the caller renders the refusal. */

export interface OperationInfo {
  name: string;
  readOnly: boolean;
}

export interface PolicyRefusal {
  reason: 'tool_not_permitted' | 'read_only' | 'check_not_allowed' | 'check_denied' | 'shell_not_allowed';
  message: string;
}

export function operationRefusal(policy: OwnerPolicy, op: OperationInfo): PolicyRefusal | null {
  if (policy.tools !== null && !policy.tools.includes(op.name)) {
    return { reason: 'tool_not_permitted', message: `${op.name} is not among the tools policy ${policy.name ?? '(token)'} makes available.` };
  }
  if (policy.mode === 'read_only' && !op.readOnly) {
    return { reason: 'read_only', message: `${op.name} writes; policy ${policy.name ?? '(token)'} is read_only.` };
  }
  return null;
}

/** The operations a caller under `policy` is shown (tools/list, capabilities). */
export function visibleOperations<T extends OperationInfo>(policy: OwnerPolicy, ops: readonly T[]): T[] {
  return ops.filter((op) => operationRefusal(policy, op) === null);
}

export interface CommandCheckInfo {
  name: string;
  shell: boolean;
}

/** Command checks run programs: deny always wins, allow_list needs an entry, a shell needs `shell: true`. */
export function commandCheckRefusal(policy: OwnerPolicy, check: CommandCheckInfo): PolicyRefusal | null {
  const who = `policy ${policy.name ?? '(token)'}`;
  if (policy.mode === 'read_only') return { reason: 'read_only', message: `${who} is read_only: command checks do not run.` };
  if (policy.deny.includes(check.name)) return { reason: 'check_denied', message: `${who} denies the command check ${check.name}.` };
  if (policy.mode === 'allow_list' && !policy.allow.includes(check.name)) {
    return { reason: 'check_not_allowed', message: `${who} allows only the command checks ${policy.allow.join(', ') || '(none)'}; ${check.name} is not among them.` };
  }
  if (check.shell && !policy.shell) return { reason: 'shell_not_allowed', message: `${check.name} runs through a shell, which ${who} does not allow.` };
  return null;
}
