-- Targets imported from a workspace file (palimpsest_initialize_target with from_workspace) and the file
-- each is bound to: one row per WorkspaceFileBound event. Rebuilt from the events like every read model.
-- Device and inode numbers are decimal text: they can exceed what a bigint holds.

CREATE TABLE workspace_files (
  target_id                uuid PRIMARY KEY,
  path                     text        NOT NULL,
  root_dev                 text        NOT NULL,
  root_ino                 text        NOT NULL,
  file_dev                 text        NOT NULL,
  file_ino                 text        NOT NULL,
  source_sha256            text        NOT NULL,
  source_line_ending_style text        NOT NULL,
  log_sequence             bigint      NOT NULL,
  bound_at                 timestamptz NOT NULL
);
CREATE INDEX workspace_files_by_path ON workspace_files (root_dev, root_ino, path);
