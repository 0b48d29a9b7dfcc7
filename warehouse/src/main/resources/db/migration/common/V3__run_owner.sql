-- The process that runs an attempt, so that an attempt left STARTED by a killed process can be
-- told from one that is still running (same host, process gone = recoverable).
ALTER TABLE sluice.run ADD COLUMN host VARCHAR(255);
ALTER TABLE sluice.run ADD COLUMN pid BIGINT;
