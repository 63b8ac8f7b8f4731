-- Periodic copies of a target's text, so a read as of any version folds a bounded number of effects
-- instead of the whole history. Every row is a function of the log (the text after the acceptance that
-- made `version`), written with that acceptance and rebuilt with the other read models: dropping them all
-- changes no answer, only its cost.
CREATE TABLE history_snapshots (
  target_id    uuid    NOT NULL,
  version      bigint  NOT NULL CHECK (version > 0),
  after_hash   text    NOT NULL,
  log_sequence bigint  NOT NULL,
  body         text    NOT NULL,
  CONSTRAINT history_snapshots_pkey PRIMARY KEY (target_id, version)
);
ALTER TABLE history_snapshots ALTER COLUMN body SET STORAGE EXTERNAL;

-- An as-of read names a version: the acceptance that made it, in one probe.
CREATE INDEX attempts_by_target_after_version ON attempts (target_id, after_version) WHERE status = 'accepted';
