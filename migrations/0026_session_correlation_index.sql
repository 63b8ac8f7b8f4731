-- The session audit reads a session's events by the correlation id in their metadata, in log order, and
-- lists sessions by it: without an index both scanned the whole log. Partial: most events carry no id
-- (submissions that asked for none), and those pay nothing for it.
CREATE INDEX events_correlation_idx ON events ((metadata->>'correlation_id'), global_position)
  WHERE metadata->>'correlation_id' IS NOT NULL;
