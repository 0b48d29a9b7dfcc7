-- Partitions a scheduled fire did not load on purpose: a tier-3 pipeline that was down runs only
-- its newest missed fire and records the others here (shown by status, backfillable).
CREATE TABLE sluice.missed_partition (
    pipeline      VARCHAR(200)  NOT NULL,
    partition_key VARCHAR(40)   NOT NULL,
    scheduled_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    recorded_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    reason        VARCHAR(1000) NOT NULL,
    PRIMARY KEY (pipeline, partition_key)
);
