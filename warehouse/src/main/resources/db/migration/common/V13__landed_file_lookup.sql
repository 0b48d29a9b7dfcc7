-- The current-load test of every Bronze row (LandedFileRepository.isCurrent) looks up its file by
-- (table, partition, source, run): with only (table, partition) indexed, a snapshot of many files
-- (182 daily files read as one partition) compared each row with every file of the partition.
CREATE INDEX landed_file_lookup_ix ON sluice.landed_file (bronze_table, partition_key, source, run_id);
