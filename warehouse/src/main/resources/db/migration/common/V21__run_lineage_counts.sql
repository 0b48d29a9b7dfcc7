-- What the lineage emitters of each attempt did with its OpenLineage events, summed over the
-- attempt's executions (a restart adds to them): sent to the transport, dropped (the bounded queue
-- was full, lineage.queue) and failed (storing or sending). Lineage never fails a run, so this is
-- where a one-off CLI run leaves the trace of a lineage outage for the metrics.
ALTER TABLE sluice.run ADD COLUMN lineage_sent BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE sluice.run ADD COLUMN lineage_dropped BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE sluice.run ADD COLUMN lineage_failed BIGINT DEFAULT 0 NOT NULL;
