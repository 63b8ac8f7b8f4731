-- Less written per acceptance, nothing lost: the log already holds every fact these drop.
--
-- An attempt's change facts and a ledger entry's fact were copies of the acceptance event's change_facts;
-- they are now read from the event (attempts.log_sequence and ledger.log_sequence are its global_position,
-- and a ledger entry's fact is the one with its change_index).
ALTER TABLE attempts DROP COLUMN change_facts;
ALTER TABLE ledger DROP COLUMN derived;

-- The status and editing-cycle filters read the per-target index newest first and filter its rows (the
-- active cycle and either status sit at the newest end); a content-hash lookup is an equality on a value
-- of 64 hex digits, which a hash index answers with a 4-byte key instead of a copy of the text.
DROP INDEX attempts_by_target_status;
DROP INDEX ledger_by_target_cycle;
DROP INDEX attempts_by_content_hash;
CREATE INDEX attempts_by_content_hash ON attempts USING hash (content_hash);

-- The targets row is rewritten by every event; PostgreSQL logs an update that stays on its page from the
-- first changed byte to the last. The columns that never change after creation now come first, so an
-- acceptance logs its version, hash and positions, not the filename and line-ending facts again.
CREATE TABLE targets_reordered (
  target_id               uuid        NOT NULL,
  filename                text        NOT NULL,
  content_type            text        NOT NULL,
  project_id              uuid,
  source_line_endings     jsonb,
  created_at              timestamptz NOT NULL,
  active_editing_cycle_id uuid        NOT NULL,
  version                 bigint      NOT NULL,
  current_hash            text        NOT NULL,
  stream_version          bigint      NOT NULL,
  last_position           bigint      NOT NULL,
  updated_at              timestamptz NOT NULL
);
INSERT INTO targets_reordered
SELECT target_id, filename, content_type, project_id, source_line_endings, created_at, active_editing_cycle_id,
       version, current_hash, stream_version, last_position, updated_at
  FROM targets;
DROP TABLE targets;
ALTER TABLE targets_reordered RENAME TO targets;
ALTER TABLE targets ADD CONSTRAINT targets_pkey PRIMARY KEY (target_id);
ALTER TABLE targets ADD CONSTRAINT targets_version_check CHECK (version >= 0);
