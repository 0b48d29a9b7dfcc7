-- A quarantined record is kept whole: a row with a long value (a line may hold up to
-- ingest.max_line_bytes characters, a Kafka record up to its broker's limit) failed the Silver
-- step or the hot path's batch on every restart with "Value too long" at VARCHAR(100000).
-- H2's longest CHARACTER VARYING, so comparisons and LIKE behave as before.
ALTER TABLE sluice.quarantine ALTER COLUMN record_json SET DATA TYPE CHARACTER VARYING(1000000000);
