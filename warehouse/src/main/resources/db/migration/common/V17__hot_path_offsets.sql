-- The hot path's consumed positions, stored in the same transaction as the events they cover:
-- the database, not Kafka's committed offsets, says where a consumer group resumes. A position
-- never moves backwards (an UPDATE only ever raises next_offset).
CREATE TABLE sluice.hot_offset (
    group_id        VARCHAR(200) NOT NULL,
    topic           VARCHAR(249) NOT NULL,
    kafka_partition INTEGER      NOT NULL,
    next_offset     BIGINT       NOT NULL,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (group_id, topic, kafka_partition)
);
-- A poison event is quarantined once however often its batch is redone.
CREATE INDEX quarantine_source_ix ON sluice.quarantine (source, source_pos);
