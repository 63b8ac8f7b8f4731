-- A third publication kind: 'write', the agent file tools (edit_file, write_file). Rolled back on
-- recovery like an apply, since their target events commit with PublicationCompleted.
ALTER TABLE publication_journals DROP CONSTRAINT publication_journals_kind_check;
ALTER TABLE publication_journals ADD CONSTRAINT publication_journals_kind_check CHECK (kind IN ('save', 'apply', 'write'));
