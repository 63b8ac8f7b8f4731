-- Asynchronous consumers (the projector's projections, the NATS relay) keep their place in
-- projection_checkpoints (0002): (last_xid, last_position) is the last event handled, in readAll's
-- commit-safe order, (0, 0) the beginning. A consumer writes its checkpoint in the transaction that
-- applies its batch (projections) or after the server's acknowledgement (relay), always compare-and-set
-- on the old value, so two instances can never both advance one checkpoint from the same place.

UPDATE projection_checkpoints SET last_xid = '0' WHERE last_xid IS NULL;
ALTER TABLE projection_checkpoints
  ALTER COLUMN last_xid SET DEFAULT '0',
  ALTER COLUMN last_xid SET NOT NULL,
  ADD COLUMN events_handled bigint NOT NULL DEFAULT 0,
  ADD CONSTRAINT projection_checkpoints_position_nonnegative CHECK (last_position >= 0);
