-- The newest event time (epoch seconds) each partition of a hot path's topic has delivered,
-- advanced with its offset in the same transaction. The watermark is the least of them (the
-- partition furthest behind holds it back, as in the Dataflow model) minus the allowed lateness.
ALTER TABLE sluice.hot_offset ADD COLUMN max_event_s BIGINT;
