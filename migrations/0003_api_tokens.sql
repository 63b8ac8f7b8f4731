-- Bearer tokens of the HTTP gateway. Only the SHA-256 of each secret is stored: the secret is shown
-- once, at creation, and a leaked table does not let anyone call the API. Secrets are 256-bit random,
-- so an unsalted hash is enough (there is nothing to guess, unlike a password).

CREATE TABLE api_tokens (
  token_id      uuid        PRIMARY KEY,
  name          text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  secret_sha256 text        NOT NULL UNIQUE CHECK (secret_sha256 ~ '^[0-9a-f]{64}$'),
  scopes        text[]      NOT NULL CHECK (
                  cardinality(scopes) >= 1
                  AND scopes <@ ARRAY['read', 'write', 'operator', 'auditor']::text[]
                ),
  -- Optional owner policy (seed 004's commandPolicy) the gateway passes to dispatch for this token.
  policy        jsonb       CHECK (policy IS NULL OR jsonb_typeof(policy) = 'object'),
  created_at    timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz,
  last_used_at  timestamptz
);
