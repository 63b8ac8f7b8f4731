import type { OwnerPolicy, PolicyMode } from '@palimpsest/core/policy/owner-policy';

/** What the machine's owner sets for one project (seed 004's localCommandPolicy): every field optional. */
export interface LocalCommandPolicy {
  mode?: PolicyMode;
  allow?: string[];
  deny?: string[];
  shell?: boolean;
  approve?: boolean;
  tools?: string[];
}

const STRICTNESS: Record<PolicyMode, number> = { allow_all: 0, allow_list: 1, read_only: 2 };

/**
 * The policy an executor runs a relayed call under: the hosted one (from the tool.call; absent: allow
 * all) narrowed by the local one, never widened. The stricter mode wins; under two allow lists only what
 * both allow; every deny of either; shell only if both allow it; an approval if either asks; only the
 * tools both offer.
 */
export function narrowPolicy(hosted: Omit<OwnerPolicy, 'name' | 'require_checks'> | null, local: LocalCommandPolicy | null, name: string): OwnerPolicy {
  const h = hosted ?? { mode: 'allow_all' as const, allow: [], deny: [], shell: false, approve: false, tools: null };
  const l = local ?? {};
  const mode = l.mode && STRICTNESS[l.mode] > STRICTNESS[h.mode] ? l.mode : h.mode;
  const allow = h.mode === 'allow_list' && l.mode === 'allow_list' ? h.allow.filter((a) => (l.allow ?? []).includes(a)) : h.mode === 'allow_list' ? h.allow : (l.allow ?? h.allow);
  const tools = l.tools === undefined ? h.tools : h.tools === null ? [...l.tools] : h.tools.filter((t) => l.tools!.includes(t));
  return {
    name,
    mode,
    allow: [...allow],
    deny: [...new Set([...h.deny, ...(l.deny ?? [])])],
    shell: h.shell && (l.shell ?? true),
    approve: h.approve || (l.approve ?? false),
    tools,
    require_checks: [],
  };
}
