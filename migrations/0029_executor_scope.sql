-- The executor scope: a token with it lets a machine connect to /v1/executors/connect as an executor
-- (`palimpsest connect`, docs/executors.md). It opens no HTTP route.
ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_scopes_check;
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_scopes_check CHECK (
  cardinality(scopes) >= 1
  AND scopes <@ ARRAY['read', 'write', 'operator', 'auditor', 'executor']::text[]
);
