-- Inline read models, written in the same transaction as the events they derive from.
-- Every table here can be dropped and rebuilt from the events (palimpsest projections rebuild).

CREATE TABLE targets (
  target_id               uuid PRIMARY KEY,
  filename                text        NOT NULL,
  content_type            text        NOT NULL,
  project_id              uuid,
  content                 text        NOT NULL,
  version                 bigint      NOT NULL CHECK (version >= 0),
  current_hash            text        NOT NULL,
  active_editing_cycle_id uuid        NOT NULL,
  source_line_endings     jsonb,
  stream_version          bigint      NOT NULL,
  last_position           bigint      NOT NULL,
  created_at              timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL
);
-- Large documents are rewritten whole on each acceptance: skip compression, keep them out of line.
ALTER TABLE targets ALTER COLUMN content SET STORAGE EXTERNAL;

CREATE TABLE target_snapshots (
  snapshot_id             uuid PRIMARY KEY,
  target_id               uuid        NOT NULL,
  snapshot_reason         text        NOT NULL CHECK (snapshot_reason IN ('initial', 'save_checkpoint')),
  version                 bigint      NOT NULL,
  current_hash            text        NOT NULL,
  closed_editing_cycle_id uuid,
  new_editing_cycle_id    uuid        NOT NULL,
  log_sequence            bigint      NOT NULL,
  created_at              timestamptz NOT NULL
);
CREATE INDEX target_snapshots_by_target ON target_snapshots (target_id, log_sequence);

-- The attempt log: one row per ProposalAccepted / ProposalRejected event.
-- log_sequence is the event's global position; the submitted record stays in the event (joined on demand).
CREATE TABLE attempts (
  attempt_id              uuid PRIMARY KEY,
  log_sequence            bigint      NOT NULL UNIQUE,
  target_id               uuid        NOT NULL,
  status                  text        NOT NULL CHECK (status IN ('accepted', 'rejected')),
  protocol_version        text,
  runtime_version         text,
  content_hash            text        NOT NULL,
  content_bytes           integer     NOT NULL,
  request_fingerprint     text        NOT NULL,
  client_request_id       text,
  expected_target_version bigint,
  expected_current_hash   text,
  parent_attempt_id       uuid,
  regeneration_attempt    integer,
  source                  text        NOT NULL,
  intent                  text,
  before_version          bigint      NOT NULL,
  after_version           bigint,
  before_hash             text        NOT NULL,
  after_hash              text,
  failure_reason          text,
  failure_detail          text,
  failed_change_id        text,
  validation_stage        text,
  diagnostic              jsonb,
  change_facts            jsonb,
  editing_cycle_id        uuid        NOT NULL,
  created_at              timestamptz NOT NULL
);
-- One live binding per request key and target: the idempotency lookup, and the race guard.
CREATE UNIQUE INDEX attempts_request_key ON attempts (target_id, client_request_id) WHERE client_request_id IS NOT NULL;
CREATE INDEX attempts_by_target ON attempts (target_id, log_sequence DESC);
CREATE INDEX attempts_by_target_status ON attempts (target_id, status, log_sequence DESC);
CREATE INDEX attempts_by_content_hash ON attempts (target_id, content_hash, log_sequence DESC);

-- The manifest ledger: one row per accepted change.
-- ledger_sequence = log_sequence * 100000 + change_index: deterministic, so a rebuild reproduces it.
CREATE TABLE ledger (
  ledger_sequence         bigint PRIMARY KEY,
  attempt_id              uuid        NOT NULL,
  log_sequence            bigint      NOT NULL,
  target_id               uuid        NOT NULL,
  editing_cycle_id        uuid        NOT NULL,
  before_version          bigint      NOT NULL,
  after_version           bigint      NOT NULL,
  change_index            integer     NOT NULL,
  change_id               text        NOT NULL,
  intent                  text,
  transaction_intent      text,
  rationale               text,
  risk                    text,
  origin                  text        NOT NULL,
  derived                 jsonb       NOT NULL,
  created_at              timestamptz NOT NULL
);
CREATE INDEX ledger_by_target ON ledger (target_id, ledger_sequence DESC);
CREATE INDEX ledger_by_target_cycle ON ledger (target_id, editing_cycle_id, ledger_sequence DESC);

-- Where each read model stands in the event log (for rebuild bookkeeping and async consumers).
CREATE TABLE projection_checkpoints (
  projection              text PRIMARY KEY,
  last_xid                xid8,
  last_position           bigint      NOT NULL DEFAULT 0,
  rebuilt_at              timestamptz,
  updated_at              timestamptz NOT NULL DEFAULT now()
);
