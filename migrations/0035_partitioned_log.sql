-- The event log becomes a partitioned table, so an old part of it can be detached and archived while
-- writers run (docs/deployment.md, "The partitioned log").
--
-- Partition key: an epoch, not the global position nor a stream hash. PostgreSQL requires the partition
-- key in every unique index of a partitioned table, and the append relies on unique (stream_id,
-- stream_version) to let exactly one of two racing writers take a version. Each partition keeps that
-- unique index of its own (and its own primary key on global_position, the indexes unchanged, so the
-- WAL of an append is too). What makes the per-partition index enough is that two writers of one
-- version always land in the same partition: every row takes the current epoch from log_state (in the
-- INSERT's snapshot), and the epoch only moves in a transaction that first takes LOCK TABLE ONLY events
-- IN SHARE MODE: it waits for every transaction that has written to events and holds off new writers
-- until it commits (readers are not held). A writer's statement takes its snapshot after its lock, so
-- a writer after the move sees every event before it, and is in the new partition: a stale version is
-- refused by the version check, which reads every partition, and racing writers meet in one partition's
-- unique index. Epochs are therefore ordered: every event of epoch n committed before any of n + 1 was
-- inserted. A stream-hash key would keep global uniqueness but could not let go of old events; fixed
-- position or time ranges created ahead (pg_partman's way) would let two racing writers straddle a
-- boundary with nothing to stop them, and PGlite has no pg_partman: neither is used.
--
-- Archived epochs leave events (DETACH PARTITION) for the schema palimpsest_archive, stay readable
-- through the view events_archive, and leave each of their streams' last version and chain link in
-- archived_streams, from which an append continues a stream whose last event is archived.

CREATE TABLE log_state (
  id    boolean PRIMARY KEY DEFAULT true CHECK (id),
  epoch integer NOT NULL CHECK (epoch >= 0)
);
INSERT INTO log_state (id, epoch) VALUES (true, 0);

-- The epoch new events take (the partition they go to), read in the inserting statement's snapshot.
CREATE FUNCTION palimpsest_log_epoch() RETURNS integer
LANGUAGE sql STABLE AS $$ SELECT epoch FROM log_state $$;

-- The table as it was becomes epoch 0, attached as it is (no rewrite: the new column has a constant
-- default; the CHECK lets ATTACH skip its scan). Its position sequence moves to the partitioned table.
ALTER TABLE events RENAME TO events_e0;
ALTER TABLE events_e0 RENAME CONSTRAINT events_stream_version_unique TO events_e0_stream_version_unique;
ALTER TABLE events_e0 RENAME CONSTRAINT events_pkey TO events_e0_pkey;
ALTER INDEX events_transaction_order RENAME TO events_e0_transaction_order;
ALTER INDEX events_correlation_idx RENAME TO events_e0_correlation_idx;
ALTER INDEX events_workspace_snapshots_idx RENAME TO events_e0_workspace_snapshots_idx;
ALTER TABLE events_e0 ADD COLUMN epoch integer NOT NULL DEFAULT 0;
ALTER TABLE events_e0 ADD CONSTRAINT events_e0_epoch CHECK (epoch = 0);

CREATE TABLE events (
  global_position bigint GENERATED ALWAYS AS IDENTITY,
  stream_id text NOT NULL,
  stream_version bigint NOT NULL,
  event_type text NOT NULL,
  schema_version integer NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  transaction_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  recorded_at timestamptz NOT NULL,
  chain_hash bytea,
  epoch integer NOT NULL DEFAULT palimpsest_log_epoch(),
  CONSTRAINT events_stream_version_positive CHECK (stream_version >= 1),
  CONSTRAINT events_metadata_object CHECK (jsonb_typeof(metadata) = 'object'),
  CONSTRAINT events_with_chain_hash CHECK (chain_hash IS NOT NULL AND octet_length(chain_hash) = 32)
) PARTITION BY LIST (epoch);

-- Positions go on from where the old sequence stood (the highest drawn, committed or not).
DO $$
DECLARE
  next_position bigint := greatest(
    (SELECT coalesce(max(global_position), 0) FROM events_e0),
    coalesce(pg_sequence_last_value(pg_get_serial_sequence('events_e0', 'global_position')), 0)) + 1;
BEGIN
  EXECUTE format('ALTER TABLE events ALTER COLUMN global_position RESTART WITH %s', next_position);
END
$$;
ALTER TABLE events_e0 ALTER COLUMN global_position DROP IDENTITY;
DO $$
BEGIN
  -- The old sequence is gone: the new one takes its name (created while it existed, it was named ..._seq1).
  EXECUTE format('ALTER SEQUENCE %s RENAME TO events_global_position_seq', pg_get_serial_sequence('events', 'global_position'));
END
$$;
ALTER TABLE events ATTACH PARTITION events_e0 FOR VALUES IN (0);

-- Partitioned indexes: each partition's matching index is attached (epoch 0's already exist).
CREATE INDEX events_transaction_order ON events (transaction_xid, global_position);
CREATE INDEX events_correlation_idx ON events ((metadata->>'correlation_id'), global_position)
  WHERE metadata->>'correlation_id' IS NOT NULL;
CREATE INDEX events_workspace_snapshots_idx ON events ((data->'root'->>'dev'), (data->'root'->>'ino'), global_position)
  WHERE event_type = 'WorkspaceSnapshotCaptured';

-- Append-only on the partitioned table as on each partition (the partitions keep or get their own trigger).
CREATE TRIGGER events_append_only
  BEFORE UPDATE OR DELETE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION events_forbid_change();

CREATE SCHEMA palimpsest_archive;

-- One row per archived epoch (libs/store/src/log-partitions.ts writes it): where it went and what it held.
CREATE TABLE log_archives (
  epoch             integer PRIMARY KEY,
  table_name        text NOT NULL,
  events            bigint NOT NULL,
  first_position    bigint,
  last_position     bigint,
  first_recorded_at timestamptz,
  last_recorded_at  timestamptz,
  started_at        timestamptz NOT NULL,
  detached_at       timestamptz
);

-- Each stream with archived events: its last archived version and chain link (where an append goes on).
CREATE TABLE archived_streams (
  stream_id       text PRIMARY KEY,
  last_version    bigint NOT NULL,
  last_chain_hash bytea NOT NULL,
  last_position   bigint NOT NULL
);

-- The archived epochs' events, replaced by each archive (empty until the first). While an epoch is being
-- detached its rows are both here and in events: readers of both drop the repeats.
CREATE VIEW events_archive AS
  SELECT global_position, stream_id, stream_version, event_type, schema_version, data, metadata,
         transaction_xid, recorded_at, chain_hash, epoch
  FROM events WHERE false;
