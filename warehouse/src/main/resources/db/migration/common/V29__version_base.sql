-- The published version a merge-on-key version was built on (its rows carried over), null for any
-- other write: the version is published only while that one still is (a compare-and-set), so two
-- runs that built on the same version cannot publish over each other's rows.
ALTER TABLE sluice.partition_version ADD COLUMN base_version INTEGER;
