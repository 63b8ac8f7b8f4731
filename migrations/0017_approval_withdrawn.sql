-- A caller that cancels its call while the approval waits withdraws it (ApprovalWithdrawn).
ALTER TABLE approvals DROP CONSTRAINT approvals_status_check;
ALTER TABLE approvals ADD CONSTRAINT approvals_status_check CHECK (status IN ('pending', 'granted', 'declined', 'withdrawn'));
