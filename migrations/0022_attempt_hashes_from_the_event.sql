-- The hashes an attempt is read by key for (request fingerprint, expected, before and after hash) are the
-- acceptance or rejection event's: the reads join it on log_sequence (the event's global_position);
-- content_hash stays, for its filter. log_sequence's unique index went unread (attempt_id already makes
-- projecting one event twice fail).
ALTER TABLE attempts DROP COLUMN request_fingerprint;
ALTER TABLE attempts DROP COLUMN expected_current_hash;
ALTER TABLE attempts DROP COLUMN before_hash;
ALTER TABLE attempts DROP COLUMN after_hash;
ALTER TABLE attempts DROP CONSTRAINT attempts_log_sequence_key;
