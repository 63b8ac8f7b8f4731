-- Who leads each asynchronous consumer (the projector's projections, the NATS relay), for operators'
-- status. The lease itself is elsewhere: on PostgreSQL a session advisory lock held by the leader's
-- backend `backend_pid` (it dies with that connection, so a row whose backend no longer holds the lock
-- names nobody); on the embedded store the one process that owns the data directory. `holder` is
-- host:pid of the leading process, NULL once it stopped cleanly.
CREATE TABLE consumer_leases (
  consumer     text PRIMARY KEY,
  kind         text NOT NULL CHECK (kind IN ('projection', 'relay')),
  holder       text,
  backend_pid  integer,
  state        text NOT NULL DEFAULT 'stopped' CHECK (state IN ('running', 'catching_up', 'rebuilding', 'stopped')),
  acquired_at  timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
