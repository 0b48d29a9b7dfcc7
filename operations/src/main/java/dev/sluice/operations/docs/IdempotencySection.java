package dev.sluice.operations.docs;

import dev.sluice.engine.LayerEngines;
import dev.sluice.config.HotPathSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import java.util.ArrayList;
import java.util.List;

/**
 * The "Idempotency and replay" section: per table its partitioning, write mode and key (ARCHITECTURE.md,
 * "One spine" and "Warehouse layout"), the versions kept, and the hot path's effectively-once
 * delivery. Stateless.
 */
final class IdempotencySection {

    private IdempotencySection() {
    }

    static void write(Markdown md, PipelineSpec spec) {
        md.heading(2, "Idempotency and replay");
        md.paragraph("A job instance is (pipeline, partition, attempt): a plain run is attempt 0, a failed run restarts from its"
                + " failed step, `--rerun` opens the next attempt. Every step is idempotent for a partition: running it twice,"
                + " or crashing and restarting, leaves the same rows (the same checksum).");
        List<List<String>> rows = new ArrayList<>();
        for (TableSpec t : spec.tables()) {
            rows.add(List.of(Markdown.code(t.stepName()), t.layer().id(), partition(spec, t), write(t),
                    t.key().isEmpty() ? "-" : String.join(", ", t.key())));
        }
        md.table(List.of("table", "layer", "partition", "write", "key"), rows);
        md.bullet("Bronze is append-only: a landed file loads once per (source, SHA-256); each run's load of a partition becomes its"
                + " current load, earlier loads stay until purged (rows carry `_partition`, `_run_id`, `_source`, `_source_pos`,"
                + " `_ingested_at`, `_row_hash`).");
        md.bullet(LayerEngines.provider(spec).describe(spec).versions());
        HotPathSpec hot = spec.hotPath();
        if (hot != null) {
            md.bullet("Hot path: effectively once. Each batch of events, its window updates and the consumed offsets are written to the"
                    + " warehouse in one transaction; offsets are committed to Kafka afterwards, and on assignment the consumer seeks"
                    + " to the offsets stored in the warehouse. " + Markdown.code(hot.sink().qualifiedName()) + " keeps each event once"
                    + " by its event id (the record key); replay (seek by time or offsets) ends with identical sink and windows.");
        }
        md.blank();
    }

    private static String partition(PipelineSpec spec, TableSpec t) {
        if (!t.partitioned()) {
            return "none (reference snapshot)";
        }
        return t.rollup() != null ? t.rollup().id() + " rollup (rebuilt from every published input partition of the period)"
                : spec.partitionKind().id();
    }

    private static String write(TableSpec t) {
        if (t.layer() == Layer.BRONZE) {
            return t.retention() == null ? "append" : "append, raw rows kept at least " + t.retention();
        }
        return t.mergeOnKey() ? "merge-on-key (new version: the published rows upserted by key; published only while the version it was built on still is)" : "overwrite-partition (new version)";
    }
}
