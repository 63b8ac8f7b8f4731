-- A workspace snapshot is one WorkspaceSnapshotCaptured event in a stream of its own (its record is the
-- log). The snapshot status lists a root's newest captures: without an index it scanned the whole log.
-- Partial: only those events pay for it.
CREATE INDEX events_workspace_snapshots_idx ON events ((data->'root'->>'dev'), (data->'root'->>'ino'), global_position)
  WHERE event_type = 'WorkspaceSnapshotCaptured';
