import { readFileSync, statSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { BUILTIN_PROFILES, parsePolicy, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { EMPTY_POLICY_CONFIG, parsePolicyConfig, type PolicyConfig } from '@palimpsest/core/policy/policy-config';

/**
 * Where policies come from: the built-in profiles (full, read-only), the operator's policy document
 * (PALIMPSEST_POLICY_FILE, YAML or JSON: named profiles and command checks), and — for the HTTP
 * gateway — a policy object stored with a token (resolveTokenPolicy).
 */

export class PolicyConfigError extends Error {
  constructor(readonly file: string, readonly problems: string[]) {
    super(`policy file ${file} is invalid:\n  ${problems.join('\n  ')}`);
  }
}

let cached: { file: string; mtimeMs: number; config: PolicyConfig } | null = null;

/** The policy document in force (re-read when the file changes); no file (PALIMPSEST_POLICY_FILE unset): the built-in profiles only. */
export function loadPolicyConfig(file: string | null): PolicyConfig {
  if (file === null) return EMPTY_POLICY_CONFIG;
  const mtimeMs = statSync(file).mtimeMs;
  if (cached && cached.file === file && cached.mtimeMs === mtimeMs) return cached.config;
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new PolicyConfigError(file, [`not YAML or JSON: ${(err as Error).message}`]);
  }
  const parsed = parsePolicyConfig(doc);
  if (!parsed.ok) throw new PolicyConfigError(file, parsed.problems);
  cached = { file, mtimeMs, config: parsed.value };
  return parsed.value;
}

export class UnknownProfileError extends Error {
  constructor(readonly profile: string, readonly known: string[]) {
    super(`unknown profile ${JSON.stringify(profile)}: use ${known.join(', ')} (profiles come from PALIMPSEST_POLICY_FILE)`);
  }
}

/** The policy of an MCP / CLI profile, chosen once at start-up. An unknown name refuses to start. */
export function resolveProfilePolicy(profile: string, policyFile: string | null): OwnerPolicy {
  const { profiles } = loadPolicyConfig(policyFile);
  const found = profiles[profile];
  if (!found) throw new UnknownProfileError(profile, Object.keys(profiles));
  return found;
}

/**
 * For the HTTP gateway: validate the policy object stored with a token (seed 004's commandPolicy;
 * absent or null means the token is not restricted beyond its scopes).
 */
export function resolveTokenPolicy(stored: unknown, name: string | null = null): { ok: true; policy: OwnerPolicy } | { ok: false; problems: string[] } {
  if (stored === undefined || stored === null) return { ok: true, policy: { ...BUILTIN_PROFILES.full, name } };
  const parsed = parsePolicy(stored, name);
  return parsed.ok ? { ok: true, policy: parsed.value } : { ok: false, problems: parsed.problems };
}
