-- The publication journal and each bound file's baseline (issue 14). Rebuilt from the events like every
-- read model: workspace_files from WorkspaceFileBound, WorkspaceFileRefreshed and the publication events;
-- publication_journals from the publication streams.

-- disk_sha256: the bytes the file should hold, last imported, published or refreshed. A file whose bytes
-- hash otherwise has drifted. open_journal_id / journal_state: a publication that started and has no
-- outcome yet ('started'), or one reconciliation could not settle ('pending_reconcile').
ALTER TABLE workspace_files ADD COLUMN disk_sha256 text;
ALTER TABLE workspace_files ADD COLUMN disk_log_sequence bigint;
UPDATE workspace_files SET disk_sha256 = source_sha256, disk_log_sequence = log_sequence;
ALTER TABLE workspace_files ALTER COLUMN disk_sha256 SET NOT NULL;
ALTER TABLE workspace_files ALTER COLUMN disk_log_sequence SET NOT NULL;
ALTER TABLE workspace_files ADD COLUMN open_journal_id uuid;
ALTER TABLE workspace_files ADD COLUMN journal_state text CHECK (journal_state IN ('started', 'pending_reconcile'));

CREATE TABLE publication_journals (
  journal_id     uuid PRIMARY KEY,
  kind           text        NOT NULL CHECK (kind IN ('save', 'apply')),
  request_id     text,
  candidate_id   uuid,
  state          text        NOT NULL CHECK (state IN ('started', 'committed', 'rolled_back', 'pending_reconcile', 'resolved')),
  reason         text,
  detail         text,
  -- The planned files (PlannedFile) with, once decided, each file's outcome.
  files          jsonb       NOT NULL,
  reconciled     boolean     NOT NULL DEFAULT false,
  started_at     timestamptz NOT NULL,
  finished_at    timestamptz,
  stream_version integer     NOT NULL,
  log_sequence   bigint      NOT NULL
);
CREATE INDEX publication_journals_open ON publication_journals (started_at) WHERE state IN ('started', 'pending_reconcile');
CREATE INDEX publication_journals_by_request ON publication_journals (request_id) WHERE request_id IS NOT NULL;
