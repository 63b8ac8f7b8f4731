import { ALLOW_ALL } from '@palimpsest/core/policy/owner-policy';
import { CALLER_SCOPES } from '../routes/route-table';
import type { Principal } from './token-verifier';

/**
 * A token with every scope and no owner policy (the local token, the credential `palimpsest api`
 * publishes beside an embedded data directory): it can already do everything through the routes, so
 * what only such a token may do (the /v1/admin routes, choosing a profile for an MCP session) grants
 * nothing it lacks. The executor scope is not needed: it opens no route, and such a token can create
 * a token that has it.
 */
export function isUnrestricted(principal: Principal): boolean {
  return CALLER_SCOPES.every((s) => principal.scopes.includes(s)) && allowsAll(principal.policy);
}

function allowsAll(policy: object): boolean {
  const { name: _ignored, ...rest } = policy as Record<string, unknown>;
  const { name: _full, ...full } = ALLOW_ALL as unknown as Record<string, unknown>;
  return JSON.stringify(rest, Object.keys(full).sort()) === JSON.stringify(full, Object.keys(full).sort());
}
