-- Where a backfill runs: the host and pid of the process of its latest invocation, so that a
-- backfill left RUNNING by a process killed between two partitions (no attempt of it STARTED) is
-- told apart from one that runs. NULL for backfills recorded before this migration.
ALTER TABLE sluice.backfill ADD COLUMN host VARCHAR(255);
ALTER TABLE sluice.backfill ADD COLUMN pid BIGINT;
