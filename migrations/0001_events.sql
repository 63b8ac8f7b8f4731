-- The append-only event log. One row per event; a stream's versions are contiguous from 1.
-- global_position orders appends; (transaction_xid, global_position) orders commits for readAll,
-- which only returns events whose transaction is older than every running one (never skips a late commit).

CREATE TABLE events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  stream_id text NOT NULL,
  stream_version bigint NOT NULL,
  event_type text NOT NULL,
  schema_version integer NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  transaction_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  recorded_at timestamptz NOT NULL,
  CONSTRAINT events_stream_version_unique UNIQUE (stream_id, stream_version),
  CONSTRAINT events_stream_version_positive CHECK (stream_version >= 1),
  CONSTRAINT events_metadata_object CHECK (jsonb_typeof(metadata) = 'object')
);

CREATE INDEX events_transaction_order ON events (transaction_xid, global_position);

-- Append-only: any UPDATE or DELETE statement on events fails, even one that matches no row.
CREATE FUNCTION events_forbid_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'events are append-only: % on events is not allowed', TG_OP
    USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER events_append_only
  BEFORE UPDATE OR DELETE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION events_forbid_change();
