-- Other tools' job names whole (issue #51): the graph showed every job shortened at its first dot,
-- as Sluice's own step jobs (flights.silver.flights) are shown by their pipeline (flights), so dbt's
-- model.jaffle_shop.orders became "model" and all of a project's models one job. A row of the graph
-- says whether its job is another tool's (its events were posted to sluice serve): shown whole.
ALTER TABLE sluice.lineage_graph ADD COLUMN ingested BOOLEAN DEFAULT FALSE NOT NULL;

-- Graphs written before: a row is another tool's when an edge of it belongs to an ingested run.
UPDATE sluice.lineage_graph g SET ingested = TRUE
WHERE EXISTS (SELECT 1 FROM sluice.lineage_edge e JOIN sluice.lineage_run r ON r.run_id = e.run_id
              WHERE e.input_name = g.input_name AND e.output_name = g.output_name AND e.job = g.job);
