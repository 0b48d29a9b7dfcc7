-- Backfills: one row per backfill (a run of its own, resumable: invoking it again continues it)
-- and one row per partition it covers, with the state of that partition's run in it.
CREATE TABLE sluice.backfill (
    backfill_id   VARCHAR(36)   NOT NULL PRIMARY KEY,
    pipeline      VARCHAR(200)  NOT NULL,
    from_key      VARCHAR(40)   NOT NULL,
    to_key        VARCHAR(40)   NOT NULL,
    rerun         BOOLEAN       NOT NULL,
    status        VARCHAR(12)   NOT NULL,
    invocations   INTEGER       NOT NULL,
    spec_hash     VARCHAR(64)   NOT NULL,
    requester     VARCHAR(200),
    started_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    ended_at      TIMESTAMP WITH TIME ZONE
);
CREATE INDEX backfill_pipeline_ix ON sluice.backfill (pipeline, from_key, to_key);

CREATE TABLE sluice.backfill_partition (
    backfill_id   VARCHAR(36)   NOT NULL,
    partition_key VARCHAR(40)   NOT NULL,
    action        VARCHAR(12)   NOT NULL,
    status        VARCHAR(12)   NOT NULL,
    run_id        VARCHAR(36),
    message       VARCHAR(4000),
    updated_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (backfill_id, partition_key)
);
