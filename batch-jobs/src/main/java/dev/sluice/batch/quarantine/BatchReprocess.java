package dev.sluice.batch.quarantine;

import dev.sluice.warehouse.meta.QuarantineStatus;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.warehouse.meta.QuarantineTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * Reprocesses the quarantined batch rows of a pipeline: each partition with OPEN entries of a
 * Silver table is re-run ({@code --rerun}) for those Silver tables and every table downstream of
 * them (by declared input), Bronze untouched: Silver judges the partition's raw rows again under
 * the current spec and contract. The transform resolves the entries set-based: a row that now
 * passes is in the new Silver version and its entry is marked REPROCESSED; one that still fails
 * keeps one OPEN entry. Idempotent: a second reprocess finds no entry that now passes, and a row is
 * in Silver once however often its partition is re-run (each run writes a whole new version).
 * Not thread-safe (run one at a time per pipeline).
 */
public final class BatchReprocess {

    private BatchReprocess() {
    }

    /**
     * One partition's reprocess.
     *
     * @param open OPEN entries before
     * @param reprocessed of those, entries marked REPROCESSED by the re-run
     * @param stillOpen OPEN entries after
     * @param tables the tables re-run (step names)
     */
    public record Outcome(Partition partition, long open, long reprocessed, long stillOpen, List<String> tables, RunSummary run) {
    }

    /** Re-runs every partition of {@code spec} with OPEN quarantined batch rows, oldest first. */
    public static List<Outcome> reprocess(PipelineRunner runner, DSLContext dsl, PipelineSpec spec) {
        Map<String, TableSpec> silver = new LinkedHashMap<>();
        spec.tables().stream().filter(t -> t.layer() == Layer.SILVER)
                .forEach(t -> silver.put(t.table().qualifiedName(), t));
        TreeMap<Partition, Set<String>> partitions = new TreeMap<>();
        for (Record r : dsl.selectDistinct(DSL.field(DSL.name("dataset"), String.class), DSL.field(DSL.name("partition_key"), String.class))
                .from(QuarantineTable.TABLE)
                .where(DSL.field(DSL.name("pipeline")).eq(spec.name()), DSL.field(DSL.name("status")).eq(QuarantineStatus.OPEN.name()),
                        DSL.field(DSL.name("dataset"), String.class).in(silver.keySet()))
                .fetch()) {
            partitions.computeIfAbsent(new Partition(r.get(1, String.class)), k -> new LinkedHashSet<>()).add(r.get(0, String.class));
        }
        List<Outcome> out = new ArrayList<>();
        for (Map.Entry<Partition, Set<String>> p : partitions.entrySet()) {
            List<String> tables = downstream(spec, p.getValue());
            long open = count(dsl, spec, p.getKey(), p.getValue(), QuarantineStatus.OPEN.name());
            long reprocessedBefore = count(dsl, spec, p.getKey(), p.getValue(), QuarantineStatus.REPROCESSED.name());
            RunSummary run = runner.run(spec, p.getKey(), RunOptions.plain().withRerun(true).withTables(tables));
            out.add(new Outcome(p.getKey(), open, count(dsl, spec, p.getKey(), p.getValue(), QuarantineStatus.REPROCESSED.name()) - reprocessedBefore,
                    count(dsl, spec, p.getKey(), p.getValue(), QuarantineStatus.OPEN.name()), tables, run));
        }
        return out;
    }

    /** The step names of {@code changed} and of every table whose input is one of them, transitively, in spec order. */
    static List<String> downstream(PipelineSpec spec, Set<String> changed) {
        Set<String> stale = new LinkedHashSet<>(changed);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (TableSpec t : spec.tables()) {
                String in = t.inputTable().map(DatasetRef::qualifiedName).orElse(null);
                if (in != null && stale.contains(in) && stale.add(t.table().qualifiedName())) {
                    grew = true;
                }
            }
        }
        return spec.tables().stream().filter(t -> stale.contains(t.table().qualifiedName())).map(TableSpec::stepName).toList();
    }

    private static long count(DSLContext dsl, PipelineSpec spec, Partition p, Set<String> datasets, String status) {
        return dsl.fetchCount(QuarantineTable.TABLE, DSL.field(DSL.name("pipeline")).eq(spec.name())
                .and(DSL.field(DSL.name("partition_key")).eq(p.key())).and(DSL.field(DSL.name("dataset"), String.class).in(datasets))
                .and(DSL.field(DSL.name("status")).eq(status)));
    }
}
