-- Lineage from other tools (issue #27).
-- An event posted twice is stored once: the SHA-256 of its canonical JSON (keys sorted, no
-- spacing) joins the key (run, type, time, job). Rows stored before have none and stay as they are.
ALTER TABLE sluice.lineage_event ADD COLUMN body_sha256 VARCHAR(64);
CREATE UNIQUE INDEX lineage_event_once_ux ON sluice.lineage_event (run_id, event_type, event_time, job, body_sha256);

-- A run of another tool, folded from all of its events (recomputed on each one, so events may
-- arrive in any order): its state (the terminal event's type, else the latest), parent, nominal
-- time, error message and its run facets merged (a later event's facet of a key replaces an
-- earlier one).
CREATE TABLE sluice.lineage_run (
    run_id             VARCHAR(36)   NOT NULL PRIMARY KEY,
    namespace          VARCHAR(1000) NOT NULL,
    job                VARCHAR(300)  NOT NULL,
    state              VARCHAR(10)   NOT NULL,
    parent_run_id      VARCHAR(36),
    parent_job         VARCHAR(1300),
    partition_key      VARCHAR(40)   NOT NULL,
    nominal_start_time TIMESTAMP WITH TIME ZONE,
    nominal_end_time   TIMESTAMP WITH TIME ZONE,
    error_message      VARCHAR(1000000),
    started_at         TIMESTAMP WITH TIME ZONE NOT NULL,
    ended_at           TIMESTAMP WITH TIME ZONE,
    events             INT           NOT NULL,
    facets_json        VARCHAR(1000000) NOT NULL
);
CREATE INDEX lineage_run_parent_ix ON sluice.lineage_run (parent_run_id);

-- The datasets each such run named (by the name Sluice knows them by), whatever its state: the
-- runs of a dataset include one that failed before it wrote anything.
CREATE TABLE sluice.lineage_run_dataset (
    run_id  VARCHAR(36)   NOT NULL,
    role    VARCHAR(6)    NOT NULL,
    name    VARCHAR(1000) NOT NULL,
    PRIMARY KEY (run_id, role, name)
);
CREATE INDEX lineage_run_dataset_name_ix ON sluice.lineage_run_dataset (name, role);

-- Column lineage of other tools: each transformation (OpenLineage ColumnLineageDatasetFacet 1-2-0)
-- with its type (DIRECT or INDIRECT), subtype (which may be absent) and description. Sluice's own
-- rows are DIRECT.
ALTER TABLE sluice.lineage_column ADD COLUMN transformation_type VARCHAR(20) DEFAULT 'DIRECT' NOT NULL;
ALTER TABLE sluice.lineage_column ADD COLUMN description VARCHAR(4000);
ALTER TABLE sluice.lineage_column ALTER COLUMN subtype DROP NOT NULL;
ALTER TABLE sluice.lineage_column ALTER COLUMN subtype SET DATA TYPE VARCHAR(100);
