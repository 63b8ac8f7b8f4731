import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { resolveTokenPolicy } from '@palimpsest/application/candidates/policy/policy-store';
import type { Sql } from '@palimpsest/store/db';
import { SCOPES, type Scope } from '../routes/route-table';

/**
 * API tokens: `pal_` + 43 base64url characters (256 random bits). The table keeps only the SHA-256
 * of the secret; the secret itself is returned once, by createToken. No Nest here: the CLI uses it.
 */

export const TOKEN_PREFIX = 'pal_';
/** Revocations are announced here so a running gateway forgets the token at once. */
export const TOKENS_CHANNEL = 'palimpsest_tokens';
const TOKEN_SHAPE = /^pal_[A-Za-z0-9_-]{43}$/;

export interface ApiToken {
  token_id: string;
  name: string;
  scopes: Scope[];
  /** The owner policy stored with the token (null: only its scopes restrict it). */
  policy: Record<string, unknown> | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** Parses `read,write` into scopes; unknown or missing names are an error naming the allowed ones. */
export function parseScopes(list: string): Scope[] {
  const names = [...new Set(list.split(',').map((s) => s.trim()).filter(Boolean))];
  const unknown = names.filter((n) => !(SCOPES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length) {
    throw new Error(`scopes must be a comma-separated list of ${SCOPES.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  }
  return names as Scope[];
}

const COLUMNS = `token_id::text AS token_id, name, scopes, policy, created_at, revoked_at, last_used_at`;

const iso = (v: unknown): string | null => (v == null ? null : (v instanceof Date ? v : new Date(String(v))).toISOString());

function toToken(row: Record<string, unknown>): ApiToken {
  return {
    token_id: String(row.token_id),
    name: String(row.name),
    scopes: row.scopes as Scope[],
    policy: (row.policy as Record<string, unknown> | null) ?? null,
    created_at: iso(row.created_at)!,
    revoked_at: iso(row.revoked_at),
    last_used_at: iso(row.last_used_at),
  };
}

export async function createToken(
  sql: Sql,
  input: { name: string; scopes: Scope[]; policy?: Record<string, unknown> | null },
): Promise<{ token: string; record: ApiToken }> {
  const checked = resolveTokenPolicy(input.policy ?? null, input.name);
  if (!checked.ok) throw new Error(`the token policy is invalid: ${checked.problems.join('; ')}`);
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const { rows } = await sql.query(
    `INSERT INTO api_tokens (token_id, name, secret_sha256, scopes, policy, created_at)
     VALUES ($1, $2, $3, $4::text[], $5::jsonb, now()) RETURNING ${COLUMNS}`,
    [randomUUID(), input.name, hashSecret(token), input.scopes, input.policy ? JSON.stringify(input.policy) : null],
  );
  return { token, record: toToken(rows[0]) };
}

export async function listTokens(sql: Sql, opts: { includeRevoked?: boolean } = {}): Promise<ApiToken[]> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM api_tokens WHERE $1::boolean OR revoked_at IS NULL ORDER BY created_at, token_id`,
    [opts.includeRevoked === true],
  );
  return rows.map(toToken);
}

/** Revokes by id; returns the revoked token, or null when no active token has that id. */
export async function revokeToken(sql: Sql, tokenId: string): Promise<ApiToken | null> {
  const { rows } = await sql.query(
    `WITH revoked AS (
       UPDATE api_tokens SET revoked_at = now()
        WHERE token_id::text = lower($1) AND revoked_at IS NULL
       RETURNING ${COLUMNS}, secret_sha256
     )
     SELECT revoked.*, pg_notify('${TOKENS_CHANNEL}', revoked.secret_sha256) AS notified FROM revoked`,
    [tokenId],
  );
  return rows.length ? toToken(rows[0]) : null;
}

/** Revokes every active token with this name (the local token `npm start` replaces on each start). */
export async function revokeTokensNamed(sql: Sql, name: string): Promise<number> {
  const { rows } = await sql.query(
    `WITH revoked AS (
       UPDATE api_tokens SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL RETURNING secret_sha256
     )
     SELECT pg_notify('${TOKENS_CHANNEL}', secret_sha256) FROM revoked`,
    [name],
  );
  return rows.length;
}

/**
 * Deletes every token with this name, announcing the active ones as revoked: the credential a gateway
 * publishes for the CLI lives as long as that gateway and leaves no rows behind.
 */
export async function deleteTokensNamed(sql: Sql, name: string): Promise<number> {
  const { rows } = await sql.query(
    `WITH gone AS (DELETE FROM api_tokens WHERE name = $1 RETURNING secret_sha256, revoked_at)
     SELECT pg_notify('${TOKENS_CHANNEL}', secret_sha256) FROM gone WHERE revoked_at IS NULL`,
    [name],
  );
  return rows.length;
}

export async function findActiveToken(sql: Sql, secret: string): Promise<(ApiToken & { secret_sha256: string }) | null> {
  const hash = hashSecret(secret);
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM api_tokens WHERE secret_sha256 = $1 AND revoked_at IS NULL`, [hash]);
  return rows.length ? { ...toToken(rows[0]), secret_sha256: hash } : null;
}

/** Whether the token with this secret hash exists and is not revoked. */
export async function isTokenActive(sql: Sql, secretSha256: string): Promise<boolean> {
  const { rows } = await sql.query(`SELECT 1 FROM api_tokens WHERE secret_sha256 = $1 AND revoked_at IS NULL`, [secretSha256]);
  return rows.length > 0;
}

export async function touchToken(sql: Sql, tokenId: string): Promise<void> {
  await sql.query(`UPDATE api_tokens SET last_used_at = now() WHERE token_id = $1`, [tokenId]);
}
