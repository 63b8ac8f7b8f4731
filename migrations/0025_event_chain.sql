-- The hash chain of each stream: chain_hash = sha256(previous event's chain_hash || the event's digest),
-- the digest being SHA-256 of the event's canonical JSON (docs/audit-log.md), the first event of a
-- stream linking to 32 zero bytes. The append computes it in the statement that inserts the event,
-- reading the previous link by (stream_id, stream_version - 1).
--
-- Events already in the database are chained by the step that runs right after this migration, in the
-- same transaction (libs/store/src/chain-backfill.ts: the digest is computed in Node), which then requires
-- a 32-byte chain_hash of every row (CHECK events_with_chain_hash).

ALTER TABLE events ADD COLUMN chain_hash bytea;

-- The links of events appended together: links[i] = sha256(links[i-1] || digests[i]), links[0] = previous.
-- NULL when the previous link is NULL (the stream is not where the append expects it: nothing is inserted).
CREATE FUNCTION palimpsest_chain_links(previous bytea, digests bytea[]) RETURNS bytea[]
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  links bytea[] := ARRAY[]::bytea[];
  link bytea := previous;
  i integer;
BEGIN
  IF previous IS NULL THEN
    RETURN NULL;
  END IF;
  FOR i IN 1 .. coalesce(array_length(digests, 1), 0) LOOP
    link := sha256(link || digests[i]);
    links := links || link;
  END LOOP;
  RETURN links;
END
$$;

-- The Merkle log over every event (RFC 9162), in the order the log's consumers read it (readAll:
-- transaction then position, which is global position order wherever transactions commit in the order
-- they took their positions): one leaf per event, appended by the audit_log reactor of the projector.
CREATE TABLE audit_leaves (
  leaf_index      bigint PRIMARY KEY CHECK (leaf_index >= 0),
  global_position bigint NOT NULL UNIQUE,
  leaf_hash       bytea  NOT NULL CHECK (octet_length(leaf_hash) = 32)
);

-- Where the Merkle log stands: its size, its frontier (the roots of its perfect subtrees, largest
-- first, from which the root is computed without reading any leaf) and its last signed checkpoint.
CREATE TABLE audit_log_state (
  id              boolean PRIMARY KEY DEFAULT true CHECK (id),
  size            bigint NOT NULL,
  frontier        bytea[] NOT NULL,
  checkpoint_size bigint NOT NULL,
  checkpoint_at   timestamptz
);
