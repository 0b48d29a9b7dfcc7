-- The hot path's health per (group, topic, partition), written with the offset in the same
-- transaction as each batch, so that the process serving /actuator/prometheus reports it whoever
-- runs the consumers (dev.sluice.hotpath.HotOffsets says how each is measured). Only a batch that
-- moves the offset forward writes them; updated_at is the time of the last store.
--   lag_records     the consumer's lag after the batch, in records (null: not known)
--   events_stored   events the consumers wrote to the sink from the partition, cumulative, counted
--                   from this migration on (a redelivered event is not stored, nor counted, again)
--   latency_max_ms  the batch's greatest and median event-to-sink latency, ms
--   latency_p50_ms
--   rate_eps        events stored per second, a moving average with a 60 s time constant, as of
--                   updated_at (null until the partition's second store)
ALTER TABLE sluice.hot_offset ADD COLUMN lag_records BIGINT;
ALTER TABLE sluice.hot_offset ADD COLUMN events_stored BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE sluice.hot_offset ADD COLUMN latency_max_ms BIGINT;
ALTER TABLE sluice.hot_offset ADD COLUMN latency_p50_ms BIGINT;
ALTER TABLE sluice.hot_offset ADD COLUMN rate_eps DOUBLE PRECISION;
