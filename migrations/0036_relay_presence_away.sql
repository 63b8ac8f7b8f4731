-- A gateway lists the projects whose executor went away beside those online (docs/executors.md): every
-- gateway then answers a call for one as the holding gateway does (it waits for the executor, then
-- LOCAL_EXECUTOR_OFFLINE), where before the others answered UNKNOWN_PROJECT.
ALTER TABLE relay_presence ADD COLUMN online boolean NOT NULL DEFAULT true;
