-- What a partition version was built from (a hash of the table's SQL and its input's current
-- state), so that a reference snapshot whose input has not changed is not rewritten.
ALTER TABLE sluice.partition_version ADD COLUMN input_fingerprint VARCHAR(64);
