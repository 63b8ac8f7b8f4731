import type { FastifyRequest } from 'fastify';
import { resolveTokenPolicy } from '@palimpsest/application/candidates/policy/policy-store';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { Db } from '@palimpsest/store/db';
import { gatewayError } from '../errors/api-error';
import type { Scope } from '../routes/route-table';
import { findActiveToken, hashSecret, looksLikeToken, touchToken, TOKENS_CHANNEL } from './api-tokens';

export interface Principal {
  token_id: string;
  name: string;
  scopes: Scope[];
  /** Passed to dispatch() with every call this token makes. */
  policy: OwnerPolicy;
}

/** A request the ScopeGuard let through, with the token's principal (absent on public routes and with --no-auth). */
export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

const REALM = 'Bearer realm="palimpsest"';
const TOUCH_EVERY_MS = 60_000;
const CACHE_MAX = 10_000;

function unauthenticated(reason: string, message: string, challenge: string) {
  return gatewayError(401, 'unauthenticated', reason, message, { headers: { 'WWW-Authenticate': challenge } });
}

/**
 * Bearer token → principal. A verified token is trusted for `cacheMs` without a lookup, so a request
 * costs no extra round trip; revocation is announced on TOKENS_CHANNEL and evicts it at once.
 * The cache is only as good as that announcement: while the listener connection is down (a revoke
 * there would be missed) nothing is trusted from the cache and every request looks its token up, and
 * whatever was cached before the gap is dropped when it ends.
 * last_used_at is written at most once a minute per token, off the request path.
 */
export class TokenVerifier {
  private readonly cache = new Map<string, { principal: Principal; until: number }>();
  private readonly touched = new Map<string, number>();
  private unlisten: (() => Promise<void>) | undefined;
  /** False while revocations may be missed (the listener is down). */
  private trusting = true;
  /** Counts gaps: a lookup that started before one must not fill the cache after it. */
  private generation = 0;
  private readonly revocationListeners = new Set<(hash: string | null) => void>();

  constructor(
    private readonly db: Db,
    private readonly cacheMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.db.listen(
      TOKENS_CHANNEL,
      (hash) => {
        this.cache.delete(hash);
        for (const listener of this.revocationListeners) listener(hash);
      },
      (gap) => {
        this.generation++;
        this.cache.clear();
        this.trusting = gap === 'resumed';
        if (gap === 'resumed') for (const listener of this.revocationListeners) listener(null);
      },
    );
  }

  /**
   * Tells `listener` of each revoked or deleted token's secret hash as the announcement arrives, and
   * (null) when the listener connection is back after a gap in which announcements may have been missed.
   * Long-lived connections (executors) hold a token past one request; this is how they learn of it.
   */
  onRevocation(listener: (hash: string | null) => void): () => void {
    this.revocationListeners.add(listener);
    return () => this.revocationListeners.delete(listener);
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
  }

  async verify(authorization: string | undefined): Promise<Principal> {
    if (!authorization) {
      throw unauthenticated('missing_token', 'This route needs a bearer token: Authorization: Bearer pal_… (palimpsest tokens create).', REALM);
    }
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    const secret = match?.[1];
    if (!secret || !looksLikeToken(secret)) {
      throw unauthenticated('invalid_token', 'The Authorization header must be "Bearer pal_…" with a token from palimpsest tokens create.', `${REALM}, error="invalid_token"`);
    }
    const hash = hashSecret(secret);
    const cached = this.trusting ? this.cache.get(hash) : undefined;
    if (cached && cached.until > Date.now()) return this.used(cached.principal);
    const generation = this.generation;
    const token = await findActiveToken(this.db, secret);
    if (!token) {
      this.cache.delete(hash);
      throw unauthenticated('invalid_token', 'The bearer token is unknown or revoked.', `${REALM}, error="invalid_token"`);
    }
    const resolved = resolveTokenPolicy(token.policy, token.name);
    if (!resolved.ok) {
      throw gatewayError(403, 'permission_denied', 'invalid_token_policy', `The policy stored with token "${token.name}" is invalid: ${resolved.problems.join('; ')}.`);
    }
    const principal: Principal = { token_id: token.token_id, name: token.name, scopes: token.scopes, policy: resolved.policy };
    if (this.trusting && generation === this.generation) {
      if (this.cache.size >= CACHE_MAX) this.cache.clear();
      this.cache.set(hash, { principal, until: Date.now() + this.cacheMs });
    }
    return this.used(principal);
  }

  private used(principal: Principal): Principal {
    const now = Date.now();
    if (now - (this.touched.get(principal.token_id) ?? 0) >= TOUCH_EVERY_MS) {
      this.touched.set(principal.token_id, now);
      touchToken(this.db, principal.token_id).catch(this.onError);
    }
    return principal;
  }
}

export function scopeRefusal(principal: Principal, needed: Scope) {
  return gatewayError(
    403,
    'permission_denied',
    'missing_scope',
    `This route needs the ${needed} scope; the token "${principal.name}" has ${principal.scopes.join(', ')}.`,
    {
      fields: { required_scope: needed, granted_scopes: principal.scopes },
      headers: { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${needed}"` },
    },
  );
}
