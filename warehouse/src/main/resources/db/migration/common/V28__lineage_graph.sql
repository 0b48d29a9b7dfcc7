-- Lineage at scale (issue #27): years of hourly partitions across a hundred pipelines are millions
-- of runs, and so millions of edges, but the dataset graph is a few hundred pairs.
-- The dataset graph: one row per distinct (input dataset, output dataset, job) of the edges, with
-- when it was first and last seen (event time), written in the same transaction as the edges. The
-- closures and the catalog's dataset view walk this table, the size of the graph, not of the runs.
CREATE TABLE sluice.lineage_graph (
    input_name       VARCHAR(1000) NOT NULL,
    output_name      VARCHAR(1000) NOT NULL,
    job              VARCHAR(300)  NOT NULL,
    input_namespace  VARCHAR(1000) NOT NULL,
    output_namespace VARCHAR(1000) NOT NULL,
    first_seen       TIMESTAMP WITH TIME ZONE NOT NULL,
    last_seen        TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (input_name, output_name, job)
);
CREATE INDEX lineage_graph_output_ix ON sluice.lineage_graph (output_name);

-- Stores written before: their graph from their edges.
INSERT INTO sluice.lineage_graph (input_name, output_name, job, input_namespace, output_namespace, first_seen, last_seen)
SELECT input_name, output_name, job, MIN(input_namespace), MIN(output_namespace), MIN(event_time), MAX(event_time)
FROM sluice.lineage_edge
GROUP BY input_name, output_name, job;

-- The last partition of an input range (a rollup read the days of its month), NULL when the step
-- read one partition: "which ranges hold partition p" reads the index of the ranged edges only
-- (input_range_to >= p), not every older edge of the input.
ALTER TABLE sluice.lineage_edge ADD COLUMN input_range_to VARCHAR(40);
UPDATE sluice.lineage_edge SET input_range_to = input_partition_to WHERE input_partition_from <> input_partition_to;
CREATE INDEX lineage_edge_input_range_ix ON sluice.lineage_edge (input_name, input_range_to);
-- (input_name) alone is a prefix of lineage_edge_input_partition_ix (input_name, input_partition_from):
-- without it H2's planner no longer reads every edge of an input for "which edges read partition p".
DROP INDEX sluice.lineage_edge_input_ix;
-- An ingested run's edges by run (purge of other tools' lineage, a run's page).
CREATE INDEX lineage_edge_run_ix ON sluice.lineage_edge (run_id);
CREATE INDEX lineage_column_run_ix ON sluice.lineage_column (run_id);
