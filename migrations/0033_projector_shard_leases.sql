-- Projector shards on PostgreSQL (docs/projector.md, "Shards and leases"). A shard is one processor of the
-- log consumer (a projection, the relay, a reactor), named as its checkpoint in projection_checkpoints.
--
-- projector_members: every running log consumer, one row each (`member` is unique per consumer instance,
-- `holder` its host:pid), with the processors it runs (`shards`) and the backend of the session it holds
-- for its life. It is live while its heartbeat has not expired and that backend (pid, backend_start) is
-- still in pg_stat_activity: a killed process's backend ends with its socket, so its shards are free at
-- once instead of at expiry.
CREATE TABLE projector_members (
  member         text PRIMARY KEY,
  holder         text NOT NULL,
  shards         text[] NOT NULL,
  backend_pid    integer NOT NULL,
  backend_start  timestamptz NOT NULL,
  expires_at     timestamptz NOT NULL
);

-- projector_shard_leases: who leads each shard until `expires_at` (renewed every third of the lease
-- period). `token` is the fencing token: incremented on every takeover, and the holder's checkpoint
-- update (in the transaction of the batch's writes) only succeeds while the row still carries its token,
-- so a process that lost the lease can never move the checkpoint. A released lease keeps its token.
CREATE TABLE projector_shard_leases (
  shard        text PRIMARY KEY,
  member       text,
  holder       text,
  token        bigint NOT NULL DEFAULT 0,
  expires_at   timestamptz NOT NULL DEFAULT now(),
  acquired_at  timestamptz
);
