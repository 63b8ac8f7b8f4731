import type { Profile } from '@palimpsest/mcp/mcp-server/tool-list';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { Principal } from '../auth/token-verifier';
import { resolveProfilePolicy, UnknownProfileError } from '@palimpsest/application/candidates/policy/policy-store';
import { isUnrestricted } from '../auth/unrestricted';
import { gatewayError } from '../errors/api-error';
import { OPERATION_ROUTES } from '../routes/route-table';

/** What one MCP caller may see and call: createMcpServer's profile and policy, and whom a session belongs to. */
export interface McpAccess {
  profile: Profile;
  policy?: OwnerPolicy;
  /** The token a session is bound to ("no-auth" when the gateway runs without authentication). */
  owner: string;
}

/**
 * A token reaches over MCP exactly the operations its scopes reach over HTTP: a tool whose route
 * needs a scope the token lacks is not listed and is refused by dispatch's policy gate, as the
 * token's own policy's hidden tools are. Without the write scope the session runs the read-only profile.
 * --no-auth: the full profile and no policy, as the HTTP routes run then.
 */
export function accessOf(principal: Principal | undefined): McpAccess {
  if (!principal) return { profile: 'full', owner: 'no-auth' };
  const reachable = OPERATION_ROUTES.filter((route) => principal.scopes.includes(route.scope)).map((route) => route.operation as string);
  const policy = principal.policy;
  const everything = reachable.length === OPERATION_ROUTES.length;
  const tools = everything ? policy.tools : (policy.tools ?? reachable).filter((tool) => reachable.includes(tool));
  return {
    profile: principal.scopes.includes('write') ? 'full' : 'read-only',
    policy: tools === policy.tools ? policy : { ...policy, tools },
    owner: principal.token_id,
  };
}

/** The header `palimpsest mcp` sends when it relays a `--profile` to the gateway's /mcp. */
export const PROFILE_HEADER = 'x-palimpsest-profile';

/**
 * A session under a named profile of the gateway's PALIMPSEST_POLICY_FILE (or full / read-only), as
 * `palimpsest mcp --profile` runs locally. The profile is named, never sent, so a caller cannot invent
 * one, and only an unrestricted token may choose it: for any other token its own scopes and policy are
 * what it is, and a profile would be a second, conflicting answer.
 */
export function accessWithProfile(principal: Principal | undefined, profileName: string | undefined, policyFile: string | null): McpAccess {
  const access = accessOf(principal);
  if (profileName === undefined || profileName === '') return access;
  if (principal && !isUnrestricted(principal)) {
    throw gatewayError(403, 'permission_denied', 'profile_needs_unrestricted_token', `Only a token with every scope and no owner policy may choose a profile (${PROFILE_HEADER}); the token "${principal.name}" is what its scopes and policy make it.`);
  }
  let policy: OwnerPolicy;
  try {
    policy = resolveProfilePolicy(profileName, policyFile);
  } catch (error) {
    if (!(error instanceof UnknownProfileError)) throw error;
    throw gatewayError(400, 'invalid_arguments', 'unknown_profile', error.message);
  }
  return { profile: policy.mode === 'read_only' ? 'read-only' : 'full', policy, owner: access.owner };
}
