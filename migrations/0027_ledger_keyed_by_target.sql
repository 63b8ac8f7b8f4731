-- Every read of the ledger names its target and pages by ledger_sequence within it, so the target and
-- the sequence are the key, and the separate (target_id, ledger_sequence) index went: one B-tree insert
-- less per accepted change (ledger_sequence stays unique: it is log_sequence × 100000 + change_index).
ALTER TABLE ledger DROP CONSTRAINT ledger_pkey;
ALTER TABLE ledger ADD CONSTRAINT ledger_pkey PRIMARY KEY (target_id, ledger_sequence);
DROP INDEX ledger_by_target;
