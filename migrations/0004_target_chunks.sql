-- Target text moves out of the targets row into chunks, so an edit rewrites the chunks it touches
-- instead of the whole document (the cost of a commit follows the delta). The text of a target is
-- the concatenation of its chunks in chunk_index order; the layout itself carries no meaning.

CREATE TABLE target_chunks (
  target_id   uuid    NOT NULL,
  chunk_index integer NOT NULL CHECK (chunk_index >= 0),
  body        text    NOT NULL,
  -- Checked at the end of each statement, so a shift of later chunks by one never collides midway.
  CONSTRAINT target_chunks_pkey PRIMARY KEY (target_id, chunk_index) DEFERRABLE INITIALLY IMMEDIATE
);
ALTER TABLE target_chunks ALTER COLUMN body SET STORAGE EXTERNAL;

INSERT INTO target_chunks (target_id, chunk_index, body)
SELECT target_id, 0, content FROM targets WHERE content <> '';

ALTER TABLE targets DROP COLUMN content;
