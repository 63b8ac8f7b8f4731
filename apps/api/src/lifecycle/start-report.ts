import { loadPolicyConfig } from '@palimpsest/application/candidates/policy/policy-store';

/**
 * What a server says at start about the two settings an agent's session depends on, so nobody has to
 * guess which process's configuration counts: the workspace root its file tools work under, and the
 * policy profiles it offers.
 */
export function workspaceRootLine(root: string | null, command: string): string {
  if (root) return `workspace root: ${root}`;
  return `workspace root: none (the file tools answer workspace_not_configured; start with \`${command} --workspace <dir>\`)`;
}

/** `file`: PALIMPSEST_POLICY_FILE (null: the built-in profiles); an unreadable document throws. */
export function policyLine(file: string | null): string {
  const { profiles } = loadPolicyConfig(file);
  const names = Object.entries(profiles).map(([name, policy]) => (policy.approve ? `${name} (approve)` : name));
  return `policy: ${file ? `${file}, profiles` : 'built-in profiles'} ${names.join(', ')}`;
}
