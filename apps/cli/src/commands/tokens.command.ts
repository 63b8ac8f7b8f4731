import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { createToken, listTokens, parseScopes, revokeToken, type ApiToken } from '@palimpsest/api/auth/api-tokens';
import { GATEWAY_CREDENTIAL_NAME } from '@palimpsest/api/lifecycle/gateway-address';
import { resolveTokenPolicy } from '@palimpsest/application/candidates/policy/policy-store';
import { UsageError } from '../cli-errors';
import { printJson } from '../runtime';
import { withStore } from '../store-access';

type Created = { token: string; record: ApiToken };

/** `palimpsest tokens create|list|revoke`: the gateway's bearer tokens (only their SHA-256 is stored). */
export function registerTokens(program: Command): void {
  const tokens = program.command('tokens').description('Create, list and revoke API tokens for `palimpsest api`');
  tokens
    .command('create')
    .description('Create a token and print it once (it cannot be shown again)')
    .requiredOption('--scopes <list>', 'comma-separated: read, write, operator, auditor, executor (for palimpsest connect)')
    .option('--name <name>', 'a label for people and logs', 'api token')
    .option('--policy <json|@file>', 'an owner policy for this token, as JSON or @path to a JSON file (docs/candidates.md)')
    .option('--json', 'print {"token", "token_id", "name", "scopes", "policy", "created_at"}')
    .action(async (opts: { scopes: string; name: string; policy?: string; json?: boolean }) => {
      const scopes = usage('--scopes', () => parseScopes(opts.scopes));
      if (opts.name === GATEWAY_CREDENTIAL_NAME) throw new UsageError(`--name: "${opts.name}" is the gateway's own credential; choose another name`);
      const policy = opts.policy ? parsePolicyOption(opts.policy, opts.name) : null;
      const { token, record } = await withStore({
        local: (ctx) => createToken(ctx.db, { name: opts.name, scopes, policy }),
        gateway: (gw) => gw.send<Created>('POST', '/v1/admin/tokens', { name: opts.name, scopes, policy }),
      });
      if (opts.json) printJson({ token, ...record });
      else process.stdout.write(`${token}\n`);
      if (!opts.json) process.stderr.write(`token ${record.token_id} (${record.scopes.join(', ')}): store it now, it is not shown again\n`);
    });
  tokens
    .command('list')
    .description('List tokens (never their secrets)')
    .option('--all', 'include revoked tokens')
    .option('--json', 'print JSON (the default when the output is not a terminal)')
    .action(async (opts: { all?: boolean; json?: boolean }) => {
      const list = await withStore({
        local: (ctx) => listTokens(ctx.db, { includeRevoked: opts.all === true }),
        gateway: async (gw) => (await gw.send<{ tokens: ApiToken[] }>('GET', `/v1/admin/tokens?all=${opts.all === true}`)).tokens,
      });
      if (opts.json || !process.stdout.isTTY) printJson(list);
      else process.stdout.write(tokenTable(list));
    });
  tokens
    .command('revoke')
    .description('Revoke a token by id; a running gateway forgets it at once')
    .argument('<token_id>', 'the token_id from create or list')
    .action(async (tokenId: string) => {
      const revoked = await withStore({
        local: (ctx) => revokeToken(ctx.db, tokenId),
        gateway: async (gw) => {
          const answer = await gw.request('POST', `/v1/admin/tokens/${encodeURIComponent(tokenId)}/revoke`);
          if (answer.status === 404) return null;
          if (answer.status !== 200) throw gw.failure(answer);
          return answer.body!.token as ApiToken;
        },
      });
      if (!revoked) {
        process.stderr.write(`palimpsest tokens: no active token with id ${tokenId} (palimpsest tokens list)\n`);
        process.exitCode = 2;
        return;
      }
      printJson(revoked);
    });
}

/** For people at a terminal: one line a token, aligned. */
function tokenTable(list: ApiToken[]): string {
  const rows = list.map((t) => [t.token_id, t.name, t.scopes.join(','), t.policy ? 'yes' : '', t.created_at.slice(0, 19), t.last_used_at?.slice(0, 19) ?? '', t.revoked_at ? 'revoked' : 'active']);
  const header = ['TOKEN ID', 'NAME', 'SCOPES', 'POLICY', 'CREATED', 'LAST USED', 'STATE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `${cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()}\n`;
  return list.length ? [header, ...rows].map(line).join('') : 'no tokens (palimpsest tokens create --scopes read,write)\n';
}

/** A bad option value is the caller's mistake: exit 2, naming the option. */
function usage<T>(option: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new UsageError(`${option}: ${(err as Error).message}`);
  }
}

/** Checked here, before any store is opened: a bad policy is the caller's mistake on either path. */
function parsePolicyOption(value: string, name: string): Record<string, unknown> {
  const parsed: unknown = usage('--policy', () => JSON.parse(value.startsWith('@') ? readFileSync(value.slice(1), 'utf8') : value));
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError('--policy must be a JSON object');
  const checked = resolveTokenPolicy(parsed, name);
  if (!checked.ok) throw new UsageError(`--policy: the token policy is invalid: ${checked.problems.join('; ')}`);
  return parsed as Record<string, unknown>;
}
