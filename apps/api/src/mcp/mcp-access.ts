import type { Profile } from '@palimpsest/mcp/mcp-server/tool-list';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { Principal } from '../auth/token-verifier';
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
