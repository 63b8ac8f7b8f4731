-- The `search` read model (asynchronous: the projector follows the log and writes it; see
-- libs/projections/src/async/search). One row per target: its filename, the workspace path it is bound
-- to, the intents of its accepted changes (the most recent 16 KiB) and the first 200,000 code points of
-- its current text, and the weighted tsvector over all of them (filename and path A, intents B, text D).
-- last_position is the newest event folded in: a batch never rewinds a row.

CREATE TABLE search_documents (
  target_id      uuid PRIMARY KEY,
  filename       text        NOT NULL,
  path           text,
  intents        text        NOT NULL DEFAULT '',
  body           text        NOT NULL,
  body_truncated boolean     NOT NULL,
  version        bigint      NOT NULL,
  document       tsvector    NOT NULL,
  last_position  bigint      NOT NULL,
  updated_at     timestamptz NOT NULL
);
ALTER TABLE search_documents ALTER COLUMN body SET STORAGE EXTERNAL;
CREATE INDEX search_documents_document ON search_documents USING GIN (document);
