-- The `activity` read model (asynchronous; see libs/projections/src/async/activity): attempts counted
-- per target and minute of recorded_at, by status, source and failure reason ('' for an acceptance);
-- retries are attempts that name the attempt they retry (parent_attempt_id). activity_totals holds the
-- same counts over all targets and all time, small enough for /metrics to read on every scrape.
-- Counters are exact because catchUp applies each batch once (its checkpoint compare-and-set).

CREATE TABLE activity_minutes (
  target_id      uuid        NOT NULL,
  bucket         timestamptz NOT NULL,
  status         text        NOT NULL CHECK (status IN ('accepted', 'rejected')),
  source         text        NOT NULL,
  failure_reason text        NOT NULL,
  attempts       bigint      NOT NULL,
  retries        bigint      NOT NULL,
  PRIMARY KEY (target_id, bucket, status, source, failure_reason)
);
CREATE INDEX activity_minutes_by_bucket ON activity_minutes (bucket);

CREATE TABLE activity_totals (
  status         text        NOT NULL CHECK (status IN ('accepted', 'rejected')),
  source         text        NOT NULL,
  failure_reason text        NOT NULL,
  attempts       bigint      NOT NULL,
  retries        bigint      NOT NULL,
  PRIMARY KEY (status, source, failure_reason)
);
