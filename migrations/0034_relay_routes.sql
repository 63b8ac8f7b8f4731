-- The executor relay across gateways on one PostgreSQL database (docs/executors.md). relay_presence: which
-- gateway (a random id per gateway process) holds each connected project now; a gateway renews its rows'
-- expiry while it runs, so the rows of one that stopped without withdrawing them lapse. relay_forwarded_calls:
-- a call a gateway hands to the gateway holding its project's executor (woken by NOTIFY on palimpsest_relay),
-- and the answer that one writes back; the caller's gateway deletes the row once it has read it.
CREATE TABLE relay_presence (
  project_id  text PRIMARY KEY,
  slug        text NOT NULL,
  gateway     text NOT NULL,
  -- who announced it (a project id stays bound to its device and token across gateways too)
  device_id   text NOT NULL,
  token_id    text,
  expires_at  timestamptz NOT NULL
);

CREATE TABLE relay_forwarded_calls (
  id          text PRIMARY KEY,
  gateway     text NOT NULL,
  call        jsonb NOT NULL,
  answer      jsonb,
  created_at  timestamptz NOT NULL DEFAULT now()
);
