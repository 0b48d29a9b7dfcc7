package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.core.PartitionKind;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A validated pipeline spec: what {@code pipelines/<name>.yaml} declares, after env interpolation.
 *
 * @param file the spec file
 * @param name the pipeline name (also the Spring Batch job name)
 * @param description free text
 * @param warehouse the warehouse
 * @param batchRows rows per Bronze chunk (one transaction, one JDBC batch or COPY)
 * @param maxLineBytes a text line longer than this (in characters) is quarantined as a whole row
 * @param keepVersions how many versions of each Silver/Gold partition are kept for rollback (≥ 1)
 * @param sources the sources, in declaration order
 * @param tables the layer tables in run order: Bronze, then Silver, then Gold, each in declaration order
 * @param sparkMaster the Spark master URL of the quality gates ({@code quality.spark_master}, default
 *     {@code $SLUICE_SPARK_MASTER} or {@code local[*]})
 * @param lineage where the pipeline's OpenLineage events go
 * @param piiKeys the HMAC keys of {@code hash} PII policies ({@link PiiKeys#NONE} when none)
 * @param partitionKind how partitions are cut ({@code partitioning.kind}: daily, hourly, monthly, per_fire)
 * @param schedule when it runs by itself and which partition a fire loads, or null (run by hand only)
 * @param tier the availability tier (1 = 99.9 %, 2 = 99.5 %, 3 = 99.0 % of a 730-hour month), 0 when undeclared
 * @param datasets what the pipeline promises per dataset (owner, update interval, freshness SLA)
 * @param alertWebhook where alerts are POSTed as JSON ({@code alerts.webhook}), or null (log only); never logged
 * @param backfillWindow how far back from today a backfill may reach ({@code backfill_window}, an
 *     ISO-8601 period such as {@code P400D}); null when the spec sets no limit
 * @param execution step timeouts, retries of retriable errors, and how often a running job looks
 *     for cancel requests ({@code execution}; {@link ExecutionSpec#DEFAULT} when absent)
 * @param hotPath the Kafka hot path ({@code hot_path}), or null when the pipeline has none
 * @param requirements what the pipeline's consumers need ({@code requirements}: latency, peak
 *     volume, live numbers, history), or null when not declared
 * @param hash SHA-256 (hex) over the spec file and its contract files: what the run ran with
 * @param engine the layer engine ({@code engine:}, {@code lakehouse:}; the warehouse engine by default)
 */
public record PipelineSpec(Path file, String name, String description, WarehouseSpec warehouse, int batchRows,
        long maxLineBytes, int keepVersions,
        List<SourceSpec> sources, List<TableSpec> tables, String sparkMaster, LineageSpec lineage, PiiKeys piiKeys,
        PartitionKind partitionKind, @Nullable ScheduleSpec schedule, int tier,
        Map<DatasetRef, DatasetPolicy> datasets, @Nullable String alertWebhook,
        java.time.@Nullable Period backfillWindow, ExecutionSpec execution,
        @Nullable HotPathSpec hotPath, @Nullable RequirementsSpec requirements, String hash, EngineSpec engine) {

    public PipelineSpec {
        datasets = Collections.unmodifiableMap(new LinkedHashMap<>(datasets));
        sources = List.copyOf(sources);
        tables = List.copyOf(tables);
    }

    /** The tables of one layer, in run order. */
    public List<TableSpec> tables(Layer layer) {
        return tables.stream().filter(t -> t.layer() == layer).toList();
    }

    /** The source named {@code name}. */
    public Optional<SourceSpec> source(String name) {
        return sources.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The table {@code ref}. */
    public Optional<TableSpec> table(DatasetRef ref) {
        return tables.stream().filter(t -> t.table().equals(ref)).findFirst();
    }

    /**
     * True when {@code t} is a snapshot ({@code partition: none}) whose input table is partitioned:
     * each run reads only its own partition of the input, so what the snapshot holds depends on the
     * partitions run before it (overwritten: the one published last; {@code merge-on-key}: every
     * one, upserted in the order they publish).
     */
    public boolean snapshotOfPartitionedInput(TableSpec t) {
        return !t.partitioned() && t.input() != null && table(t.input()).map(TableSpec::partitioned).orElse(false);
    }

    /**
     * True when what {@code t} holds depends on which partitions ran: it is partitioned, or it is a
     * snapshot whose input table is, directly or through snapshots in between (a snapshot rebuilt
     * from a snapshot of a partitioned input).
     */
    public boolean builtFromPartitions(TableSpec t) {
        return t.partitioned() || t.input() != null && table(t.input()).map(this::builtFromPartitions).orElse(false);
    }

    /** The sources whose files are per partition. */
    public Stream<SourceSpec> partitionedSources() {
        return sources.stream().filter(SourceSpec::partitioned);
    }
}
