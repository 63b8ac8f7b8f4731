import { ALLOW_ALL } from '@palimpsest/core/policy/owner-policy';
import { listTools } from '@palimpsest/mcp/mcp-server/tool-list';
import type { Principal } from '../auth/token-verifier';
import type { Scope } from '../routes/route-table';
import { accessOf, accessWithProfile } from './mcp-access';

const principal = (scopes: Scope[], policy = { ...ALLOW_ALL, name: null }): Principal => ({ token_id: 't-1', name: 'agent', scopes, policy });
const tools = (p: Principal) => {
  const access = accessOf(p);
  return listTools(access.profile, 'detailed', access.policy).map((t) => t.name);
};

describe('a token over MCP sees what its scopes reach over HTTP', () => {
  it('every scope: the full profile, its own policy as it is', () => {
    const p = principal(['read', 'write', 'operator', 'auditor']);
    expect(accessOf(p)).toEqual({ profile: 'full', policy: p.policy, owner: 't-1' });
    expect(tools(p)).toEqual(listTools('full', 'detailed').map((t) => t.name));
  });

  it('read only: the read-only profile, without the auditor tools', () => {
    const names = tools(principal(['read']));
    expect(accessOf(principal(['read'])).profile).toBe('read-only');
    expect(names).toContain('palimpsest_read_target');
    expect(names).not.toContain('palimpsest_submit_edits');
    expect(names).not.toContain('palimpsest_replay');
    expect(names).not.toContain('palimpsest_get_attempt_log');
  });

  it('read and write, no auditor: every tool but replay, the attempt log, the ledger, the session audit reads and the audit log\'s proofs', () => {
    const all = listTools('full', 'detailed').map((t) => t.name);
    expect(all.filter((n) => !tools(principal(['read', 'write'])).includes(n)).sort()).toEqual(['palimpsest_get_attempt_log', 'palimpsest_get_manifest_ledger', 'palimpsest_list_sessions', 'palimpsest_prove_consistency', 'palimpsest_prove_event', 'palimpsest_replay', 'palimpsest_session_activity']);
  });

  it("keeps the policy's hidden tools hidden", () => {
    const policy = { ...ALLOW_ALL, name: null, tools: ['palimpsest_read_target', 'palimpsest_replay', 'palimpsest_submit_edits'] };
    expect(tools(principal(['read', 'write'], policy))).toEqual(['palimpsest_read_target', 'palimpsest_submit_edits']);
  });

  it('--no-auth: the full profile, no policy, sessions owned by "no-auth"', () => {
    expect(accessOf(undefined)).toEqual({ profile: 'full', owner: 'no-auth' });
  });
});

describe('a profile chosen for a session (palimpsest mcp --profile, relayed)', () => {
  const everything = principal(['read', 'write', 'operator', 'auditor']);

  it('an unrestricted token may narrow itself to read-only; no header leaves its access as it is', () => {
    expect(accessWithProfile(everything, 'read-only', null)).toMatchObject({ profile: 'read-only', owner: 't-1' });
    expect(accessWithProfile(everything, undefined, null)).toEqual(accessOf(everything));
  });

  it('any other token is what its scopes and policy make it: choosing a profile is refused, as is an unknown one', () => {
    expect(() => accessWithProfile(principal(['read', 'write']), 'read-only', null)).toThrow(expect.objectContaining({ httpStatus: 403, message: expect.stringContaining('every scope') }));
    expect(() => accessWithProfile(everything, 'no-such-profile', null)).toThrow(expect.objectContaining({ httpStatus: 400 }));
  });
});
