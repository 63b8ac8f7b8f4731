-- Structural observations (palimpsest_observe_scope): one row per observed scope, from ScopeObserved (single
-- form) and BundleObserved (one row per scope, with the bundle and its ordinal), and one row per bundle.
-- Everything an observed submission re-verifies under the target's row lock is here: target, editing
-- cycle, version and hash, scope bounds (code points) and scope hash, and the engine identity.
-- consumed_* are for the submission that uses an observation (written by its events, none yet).
-- Rebuilt from the target streams like every read model.

CREATE TABLE observation_bundles (
  bundle_id        uuid PRIMARY KEY,
  target_id        uuid        NOT NULL,
  editing_cycle_id uuid        NOT NULL,
  target_version   bigint      NOT NULL,
  target_hash      text        NOT NULL,
  language         text        NOT NULL,
  engine           text        NOT NULL,
  scope_count      integer     NOT NULL CHECK (scope_count BETWEEN 1 AND 32),
  log_sequence     bigint      NOT NULL,
  observed_at      timestamptz NOT NULL
);

CREATE TABLE scope_observations (
  observation_id        uuid PRIMARY KEY,
  target_id             uuid        NOT NULL,
  editing_cycle_id      uuid        NOT NULL,
  target_version        bigint      NOT NULL,
  target_hash           text        NOT NULL,
  language              text        NOT NULL,
  engine                text        NOT NULL,
  selector_name         text        NOT NULL,
  selector_kind         text,
  symbol_name           text        NOT NULL,
  symbol_kind           text        NOT NULL,
  symbol_parent         text,
  scope_start           integer     NOT NULL CHECK (scope_start >= 0),
  scope_end             integer     NOT NULL CHECK (scope_end >= scope_start),
  observed_scope_hash   text        NOT NULL,
  bundle_id             uuid,
  ordinal               integer CHECK ((bundle_id IS NULL) = (ordinal IS NULL)),
  log_sequence          bigint      NOT NULL,
  observed_at           timestamptz NOT NULL,
  consumed_attempt_id   uuid,
  consumed_log_sequence bigint
);
CREATE INDEX scope_observations_by_target ON scope_observations (target_id, log_sequence);
CREATE UNIQUE INDEX scope_observations_by_bundle ON scope_observations (bundle_id, ordinal) WHERE bundle_id IS NOT NULL;
