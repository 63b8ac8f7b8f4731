-- One truth about the disk. disk_version: the version of its target whose text a bound file holds (the
-- version it was bound, refreshed or published at); a target whose version is past it is ahead of its
-- file, and the workspace status says pending. publish: when an accepted direct submission reaches the
-- file: on_accept (published with the acceptance, the default) or on_save (by palimpsest_save).
ALTER TABLE workspace_files ADD COLUMN disk_version bigint;
UPDATE workspace_files w SET disk_version = COALESCE(
  (SELECT max(a.after_version) FROM attempts a
    WHERE a.target_id = w.target_id AND a.status = 'accepted' AND a.log_sequence <= w.disk_log_sequence), 0);
ALTER TABLE workspace_files ALTER COLUMN disk_version SET NOT NULL;
ALTER TABLE workspace_files ADD COLUMN publish text NOT NULL DEFAULT 'on_accept' CHECK (publish IN ('on_accept', 'on_save'));
