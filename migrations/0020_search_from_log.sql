-- The `search` read model becomes a function of the log: it applies each acceptance's effects to the text
-- it holds instead of copying the inline models' text, so `body` now holds the whole current text (the
-- tsvector and snippets still read its first 200,000 code points) and `stream_version` is the last event
-- of the target's stream folded in (events arrive in readAll order, not always version order: a gap is
-- filled from the stream). Rows written the old way are dropped and rebuilt from the start of the log.

ALTER TABLE search_documents ADD COLUMN stream_version bigint NOT NULL DEFAULT 0;
TRUNCATE search_documents;
DELETE FROM projection_checkpoints WHERE projection = 'search';
