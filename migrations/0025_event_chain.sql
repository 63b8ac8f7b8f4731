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
