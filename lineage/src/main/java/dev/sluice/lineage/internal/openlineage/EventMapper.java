package dev.sluice.lineage.internal.openlineage;

import dev.sluice.lineage.LineageDataset;
import dev.sluice.lineage.LineageEmitter.RunEvent;
import dev.sluice.lineage.LineageEmitter.RunKind;
import io.openlineage.client.OpenLineage;
import java.net.URI;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Sluice run events as OpenLineage 2-0-2 run events (https://openlineage.io/spec/2-0-2/OpenLineage.json)
 * with these facets: run: {@code parent} (a step's job run), {@code nominalTime} (the partition's
 * business interval), {@code processing_engine}, {@code errorMessage} (FAIL), and Sluice's own
 * {@code sluice_run} (spec hash and partition; schema {@value #SLUICE_RUN_SCHEMA}); job:
 * {@code jobType} (BATCH, integration SLUICE, JOB or TASK), {@code sql}; datasets: {@code schema},
 * {@code version}, {@code partitioning} (the partition in a facet, never in the name), for a
 * dataset named by its location (a lakehouse table) {@code symlinks} (its catalog table, type
 * TABLE) and {@code storage} (e.g. iceberg, parquet), output
 * {@code outputStatistics}. Stateless and thread-safe.
 */
final class EventMapper {

    /** The schema of Sluice's own run facet, shipped in the lineage jar. */
    static final String SLUICE_RUN_SCHEMA = "https://sluice.dev/spec/facets/1-0-0/SluiceRunFacet.json";
    static final String PARTITION_SCHEMA = "https://openlineage.io/spec/facets/1-0-0/PartitionDatasetFacet.json";
    static final String METRICS_SCHEMA =
            "https://openlineage.io/spec/facets/1-0-3/DataQualityMetricsInputDatasetFacet.json#/$defs/DataQualityMetricsInputDatasetFacet";
    static final String ASSERTIONS_SCHEMA =
            "https://openlineage.io/spec/facets/1-1-0/DataQualityAssertionsDatasetFacet.json#/$defs/DataQualityAssertionsDatasetFacet";
    static final String COLUMN_LINEAGE_SCHEMA =
            "https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet";

    private final OpenLineage ol;
    private final URI producer;
    private final String namespace;
    private final String version;

    EventMapper(URI producer, String namespace, String version) {
        this.ol = new OpenLineage(producer);
        this.producer = producer;
        this.namespace = namespace;
        this.version = version;
    }

    OpenLineage.RunEvent map(RunEvent e) {
        OpenLineage.RunFacetsBuilder run = ol.newRunFacetsBuilder()
                .processing_engine(ol.newProcessingEngineRunFacet(version, "sluice", version));
        if (e.nominalStart() != null) {
            run.nominalTime(ol.newNominalTimeRunFacet(e.nominalStart().atZone(ZoneOffset.UTC),
                    e.nominalEnd() == null ? null : e.nominalEnd().atZone(ZoneOffset.UTC)));
        }
        if (e.parentRun() != null && e.parentJob() != null) {
            run.parent(ol.newParentRunFacetBuilder()
                    .run(ol.newParentRunFacetRun(UUID.fromString(e.parentRun().toString()), null))
                    .job(ol.newParentRunFacetJob(namespace, e.parentJob(), null))
                    .build());
        }
        if (e.error() != null) {
            run.errorMessage(ol.newErrorMessageRunFacet(e.error(), "JAVA", null));
        }
        run.put("sluice_run", new CustomFacet(producer, URI.create(SLUICE_RUN_SCHEMA))
                .with("specHash", e.specHash()).with("partition", e.partition().key()).with("attemptRunId", e.attempt().toString()));
        OpenLineage.JobFacetsBuilder job = ol.newJobFacetsBuilder()
                .jobType(ol.newJobTypeJobFacet("BATCH", "SLUICE", switch (e.kind()) {
                    case JOB -> "JOB";
                    case STEP -> "TASK";
                    case BACKFILL -> "DAG";
                }, null));
        if (e.sql() != null) {
            job.sql(ol.newSQLJobFacet(e.sql(), null));
        }
        List<OpenLineage.InputDataset> inputs = e.inputs().stream()
                .map(d -> ol.newInputDataset(d.namespace(), d.name(), datasetFacets(d), inputFacets(d))).toList();
        List<OpenLineage.OutputDataset> outputs = e.outputs().stream()
                .map(d -> ol.newOutputDataset(d.namespace(), d.name(), datasetFacets(d), d.rowCount() == null ? null
                        : ol.newOutputDatasetOutputFacetsBuilder()
                                .outputStatistics(ol.newOutputStatisticsOutputDatasetFacet(d.rowCount(), null, null)).build()))
                .toList();
        return ol.newRunEventBuilder()
                .eventTime(ZonedDateTime.ofInstant(e.at(), ZoneOffset.UTC))
                .eventType(OpenLineage.RunEvent.EventType.valueOf(e.type().name()))
                .run(ol.newRun(UUID.fromString(e.run().toString()), run.build()))
                .job(ol.newJob(namespace, e.job(), job.build()))
                .inputs(inputs)
                .outputs(outputs)
                .build();
    }

    /** The quality a gate found, as dataQualityMetrics and dataQualityAssertions; null without a gate. */
    private OpenLineage.@Nullable InputDatasetInputFacets inputFacets(LineageDataset d) {
        if (d.quality() == null) {
            return null;
        }
        LineageDataset.Quality q = d.quality();
        Map<String, Object> columns = new LinkedHashMap<>();
        q.nullCounts().forEach((c, n) -> columns.put(c, Map.of("nullCount", n)));
        CustomFacet metrics = new CustomFacet(producer, URI.create(METRICS_SCHEMA)).with("columnMetrics", columns);
        if (q.rowCount() != null) {
            metrics.with("rowCount", q.rowCount());
        }
        List<Object> assertions = q.assertions().stream().map(a -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("assertion", a.assertion());
            m.put("success", a.success());
            if (a.column() != null) {
                m.put("column", a.column());
            }
            return (Object) m;
        }).toList();
        return ol.newInputDatasetInputFacetsBuilder()
                .put("dataQualityMetrics", metrics)
                .put("dataQualityAssertions", new CustomFacet(producer, URI.create(ASSERTIONS_SCHEMA)).with("assertions", assertions))
                .build();
    }

    private OpenLineage.DatasetFacets datasetFacets(LineageDataset d) {
        OpenLineage.DatasetFacetsBuilder b = ol.newDatasetFacetsBuilder();
        if (!d.fields().isEmpty()) {
            b.schema(ol.newSchemaDatasetFacet(d.fields().stream()
                    .map(f -> ol.newSchemaDatasetFacetFields(f.name(), f.type(), null, null, null)).toList()));
        }
        if (d.version() != null) {
            b.version(ol.newDatasetVersionDatasetFacet(d.version()));
        }
        if (d.table() != null) {
            LineageDataset.CatalogTable t = d.table();
            b.symlinks(ol.newSymlinksDatasetFacet(List.of(ol.newSymlinksDatasetFacetIdentifiers(t.namespace(), t.name(), "TABLE"))));
            b.storage(ol.newStorageDatasetFacet(t.storageLayer(), t.fileFormat()));
        }
        if (d.partitionColumn() != null && d.partitionKey() != null) {
            b.put("partitioning", new CustomFacet(producer, URI.create(PARTITION_SCHEMA))
                    .with("columns", List.of(Map.of("columnName", d.partitionColumn())))
                    .with("partitions", List.of(Map.of("identifier",
                            List.of(Map.of("column", d.partitionColumn(), "value", d.partitionKey())))))) ;
        }
        if (!d.columnLineage().isEmpty()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (LineageDataset.ColumnInput c : d.columnLineage()) {
                @SuppressWarnings("unchecked")
                List<Object> inputs = (List<Object>) ((Map<String, Object>) fields.computeIfAbsent(c.column(),
                        k -> new LinkedHashMap<>(Map.of("inputFields", new ArrayList<>())))).get("inputFields");
                inputs.add(Map.of("namespace", c.namespace(), "name", c.name(), "field", c.field(),
                        "transformations", List.of(Map.of("type", "DIRECT", "subtype", c.subtype(), "masking", c.masking()))));
            }
            b.put("columnLineage", new CustomFacet(producer, URI.create(COLUMN_LINEAGE_SCHEMA)).with("fields", fields));
        }
        return b.build();
    }
}
