package dev.sluice.batch.backfill;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.lineage.store.ColumnLineage;
import dev.sluice.lineage.store.LineageRepository;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a change to partitions of one dataset makes stale in its pipeline, from two sources that
 * must agree:
 * <ul>
 *   <li>the declared graph: a table is downstream when its input, or a table its SQL references
 *       (a join, a quarantine rule's lookup), is the changed dataset or downstream of it; a table
 *       partitioned like the pipeline is stale in the changed partitions, a rollup in the rollup
 *       partitions holding them (a day → its month);</li>
 *   <li>the lineage store: every (dataset, partition) a recorded step run built from a changed
 *       partition, transitively ({@link LineageRepository#impact(String, Set)}), which adds what
 *       the graph cannot know: partitions built from a changed snapshot, and datasets of other tools
 *       that read Sluice's tables ({@link Result#outside()}).</li>
 * </ul>
 * Stateless.
 */
final class ChangeImpact {

    private ChangeImpact() {
    }

    /**
     * @param aligned the downstream tables partitioned like the pipeline (step names, spec order)
     * @param partitions the pipeline partitions whose {@code aligned} tables are stale, in order
     * @param rollups each stale rollup partition (a month) with the downstream rollup tables of its
     *     kind (step names, spec order), in partition order
     * @param outside downstream dataset partitions no table of the pipeline builds ({@code dataset@partition})
     */
    record Result(List<String> aligned, SortedSet<Partition> partitions, SortedMap<Partition, List<String>> rollups,
            List<String> outside) {
    }

    /**
     * The impact of a change to {@code changed} in the daily partitions {@code from} … {@code to}
     * (for a snapshot: its use by those partitions).
     *
     * @throws BadInputException when {@code changed} is not a table of {@code spec}
     */
    static Result of(PipelineSpec spec, DatasetRef changed, LocalDate from, LocalDate to, LineageRepository lineage) {
        TableSpec origin = spec.table(changed).orElseThrow(() -> new BadInputException("--changed", -1, null,
                changed + " is not a table of pipeline " + spec.name() + "; its tables: "
                        + String.join(", ", spec.tables().stream().map(TableSpec::stepName).toList())));
        Set<DatasetRef> stale = new LinkedHashSet<>(List.of(changed));
        List<String> aligned = new ArrayList<>();
        List<TableSpec> rollups = new ArrayList<>();
        for (TableSpec t : spec.tables()) {
            boolean reads = t.inputTable().filter(stale::contains).isPresent()
                    || ColumnLineage.referenced(spec, t).stream().anyMatch(r -> stale.contains(r.table()));
            if (reads && !t.table().equals(changed)) {
                stale.add(t.table());
                if (t.isRollup()) {
                    rollups.add(t);
                } else {
                    aligned.add(t.stepName());
                }
            }
        }
        SortedSet<Partition> days = new TreeSet<>();
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            days.add(Partition.daily(d));
        }
        SortedSet<Partition> partitions = new TreeSet<>();
        SortedMap<Partition, List<String>> staleRollups = new TreeMap<>();
        if (!origin.isRollup() && !aligned.isEmpty()) {
            partitions.addAll(days);
        }
        List<String> outside = new ArrayList<>();
        Set<String> keys = new TreeSet<>();
        if (origin.partitioned()) {
            days.forEach(d -> keys.add(origin.outputPartition(d).key()));
        } else {
            keys.add(Partition.NONE.key());
        }
        for (LineageRepository.Impacted i : lineage.impact(changed.qualifiedName(), keys)) {
            var table = spec.table(DatasetRef.parse(i.dataset()));
            if (table.isEmpty() || !i.job().equals(spec.name())) {
                outside.add(i.dataset() + "@" + i.partition());
            } else if (!table.get().isRollup() && days.contains(new Partition(i.partition()))) {
                partitions.add(new Partition(i.partition())); // a partition built from a changed snapshot
            }
        }
        // a rollup partition is stale when a stale partition lies in it (or, when only rollups are downstream, a changed one)
        for (TableSpec r : rollups) {
            for (Partition p : aligned.isEmpty() ? days : partitions) {
                staleRollups.computeIfAbsent(r.outputPartition(p), k -> new ArrayList<>()).add(r.stepName());
            }
        }
        staleRollups.replaceAll((k, v) -> List.copyOf(new LinkedHashSet<>(v)));
        return new Result(aligned, partitions, staleRollups, outside);
    }
}
