-- Candidate read models: inline projections of the candidate-<uuid> streams, written in the same
-- transaction as their events and rebuilt from them by `palimpsest projections rebuild`.

CREATE TABLE candidates (
  candidate_id       uuid PRIMARY KEY,
  version            integer     NOT NULL CHECK (version >= 1),
  state              text        NOT NULL CHECK (state IN ('open', 'applied', 'discarded', 'expired')),
  intent             text,
  -- The change_propose request that produced the current version, and its input fingerprint.
  request_id         text        NOT NULL,
  input_fingerprint  text        NOT NULL,
  expires_at         timestamptz NOT NULL,
  applied_request_id text,
  receipt_id         uuid,
  stream_version     bigint      NOT NULL,
  last_position      bigint      NOT NULL,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);
CREATE INDEX candidates_open_by_expiry ON candidates (expires_at) WHERE state = 'open';

-- One row per target a candidate reads or writes: its base and the candidate's resulting text.
-- It writes the target when result_hash differs from base_hash; result_version is set on apply.
CREATE TABLE candidate_targets (
  candidate_id     uuid    NOT NULL,
  target_id        uuid    NOT NULL,
  ordinal          integer NOT NULL,
  filename         text    NOT NULL,
  content_type     text    NOT NULL,
  base_version     bigint  NOT NULL,
  base_hash        text    NOT NULL,
  result_hash      text    NOT NULL,
  operation_count  integer NOT NULL,
  result_version   bigint,
  PRIMARY KEY (candidate_id, target_id)
);
-- Which candidate produced a target version (apply tells a concurrent candidate from an external write).
CREATE UNIQUE INDEX candidate_targets_by_result ON candidate_targets (target_id, result_version) WHERE result_version IS NOT NULL;

-- The latest result of each check on each candidate version ("checks passed per version").
CREATE TABLE candidate_checks (
  candidate_id      uuid        NOT NULL,
  candidate_version integer     NOT NULL,
  check_name        text        NOT NULL,
  ok                boolean     NOT NULL,
  status            text        NOT NULL CHECK (status IN ('passed', 'failed', 'unavailable')),
  result            jsonb       NOT NULL,
  log_sequence      bigint      NOT NULL,
  recorded_at       timestamptz NOT NULL,
  PRIMARY KEY (candidate_id, candidate_version, check_name)
);

-- request_id idempotency for change_propose and change_apply: one binding per key.
CREATE TABLE candidate_requests (
  request_id        text PRIMARY KEY,
  operation         text        NOT NULL CHECK (operation IN ('change_propose', 'change_apply')),
  input_fingerprint text        NOT NULL,
  candidate_id      uuid        NOT NULL,
  candidate_version integer     NOT NULL,
  log_sequence      bigint      NOT NULL,
  recorded_at       timestamptz NOT NULL
);
CREATE INDEX candidate_requests_by_candidate ON candidate_requests (candidate_id, log_sequence);

-- Approvals an owner policy asked for, and the operators' decisions.
CREATE TABLE approvals (
  approval_id       uuid PRIMARY KEY,
  candidate_id      uuid        NOT NULL,
  candidate_version integer     NOT NULL,
  request_id        text        NOT NULL,
  input_fingerprint text        NOT NULL,
  status            text        NOT NULL CHECK (status IN ('pending', 'granted', 'declined')),
  policy            text,
  prompt            text        NOT NULL,
  requested_at      timestamptz NOT NULL,
  decided_at        timestamptz,
  decided_by        text,
  note              text,
  log_sequence      bigint      NOT NULL,
  decision_sequence bigint
);
CREATE UNIQUE INDEX approvals_one_per_version ON approvals (candidate_id, candidate_version);
CREATE INDEX approvals_by_status ON approvals (status, log_sequence);
