-- Which input partitions a step read: one key for most steps, a range for a rollup (a monthly
-- Gold table reads every daily partition of its month). Keys of one kind sort in time order, so
-- "was partition p read?" is input_partition_from <= p AND input_partition_to >= p.
ALTER TABLE sluice.lineage_edge ADD COLUMN input_partition_from VARCHAR(40);
ALTER TABLE sluice.lineage_edge ADD COLUMN input_partition_to VARCHAR(40);
-- Edges stored before: a step read the partition it wrote (a snapshot input is 'none', which the
-- impact query treats as "every partition").
UPDATE sluice.lineage_edge SET input_partition_from = partition_key, input_partition_to = partition_key;
CREATE INDEX lineage_edge_input_partition_ix ON sluice.lineage_edge (input_name, input_partition_from);

-- A backfill planned from a changed dataset (sluice backfill --changed) names it; a plain one has NULL.
ALTER TABLE sluice.backfill ADD COLUMN changed_dataset VARCHAR(200);
-- A changed backfill runs rollup partitions (months) as well as the pipeline's own partitions:
-- each planned row says which steps it runs.
ALTER TABLE sluice.backfill_partition ADD COLUMN steps VARCHAR(4000);
