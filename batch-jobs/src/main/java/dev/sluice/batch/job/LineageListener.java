package dev.sluice.batch.job;

import dev.sluice.control.version.PartitionVersions;
import dev.sluice.batch.gate.GateStep;
import dev.sluice.control.quality.QualityResultRepository;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.StoredTable;
import dev.sluice.lineage.LineageDataset;
import dev.sluice.lineage.LocationName;
import dev.sluice.lineage.LineageEmitter.RunEvent;
import dev.sluice.lineage.LineageEmitter.RunKind;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.RunEventType;
import dev.sluice.lineage.store.ColumnLineage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.listener.JobExecutionListener;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * Emits the lineage of one partition's job: START and one terminal event (COMPLETE, FAIL with the
 * reason, ABORT when stopped) for the job run and for each step run, a step's parent being the job
 * run. Datasets are named stably ({@code namespace} = the warehouse or the landing location,
 * {@code name} = schema.table or the landing path template without its partition part); the
 * partition, the published version and the rows written travel in facets. A table the engine keeps
 * as files (a lakehouse table, {@link LayerEngine#stored}) is named by its location as the
 * OpenLineage naming spec names files ({@link LocationName}), its catalog table in a
 * {@code symlinks} facet, and its version is a snapshot id: an input's current one; the one that
 * holds the version a Silver/Gold step wrote (staged, before its gate publishes it) on that
 * step's output and on its gate's input; a Bronze output's current one once loaded. A step run's id is
 * derived from the job run, the step and its execution, so a restarted step is a new run. A job
 * run started by a backfill has the backfill's run as its parent. Not
 * thread-safe: one per job.
 */
final class LineageListener implements JobExecutionListener {

    /**
     * Which snapshot versions a table kept as files in an event: none, the current one, or the one
     * holding a written version of this job's partition (its branch head, before publishing).
     */
    private record Pin(boolean versioned, @Nullable Integer written) {
        static final Pin NONE = new Pin(false, null);
        static final Pin CURRENT = new Pin(true, null);

        static Pin written(int version) {
            return new Pin(true, version);
        }
    }

    private final LineageEmitter emitter;
    private final PipelineSpec spec;
    private final Partition partition;
    private final RunId run;
    private final Path home;
    private final String warehouse;
    private final boolean restart;
    private RunId jobRun;
    private final dev.sluice.warehouse.@Nullable Warehouse quality;
    private final @Nullable ParentRun parent;
    private final LayerEngine engine;

    LineageListener(LineageEmitter emitter, PipelineSpec spec, Partition partition, RunId run, Path home,
            dev.sluice.warehouse.@Nullable Warehouse quality, boolean restart, @Nullable ParentRun parent,
            LayerEngine engine) {
        this.parent = parent;
        this.engine = engine;
        this.quality = quality;
        this.restart = restart;
        this.emitter = emitter;
        this.spec = spec;
        this.partition = partition;
        this.run = run;
        this.home = home.toAbsolutePath().normalize();
        this.warehouse = warehouseNamespace(spec.warehouse().url());
        this.jobRun = run;
    }

    /** The OpenLineage namespace of a warehouse: {@code h2:file:/path}, {@code postgres://host:port/db}. */
    static String warehouseNamespace(String jdbcUrl) {
        String u = jdbcUrl.startsWith("jdbc:") ? jdbcUrl.substring(5) : jdbcUrl;
        int semi = u.indexOf(';');
        u = semi < 0 ? u : u.substring(0, semi);
        int q = u.indexOf('?');
        u = q < 0 ? u : u.substring(0, q);
        return u.startsWith("postgresql:") ? "postgres:" + u.substring("postgresql:".length()) : u;
    }

    /**
     * The OpenLineage run of this job execution: the attempt's run id for its first execution, a
     * derived id for a restart, so that every OpenLineage run has one START and one terminal event.
     */
    private RunId jobRun(JobExecution execution) {
        return !restart ? run
                : new RunId(UUID.nameUUIDFromBytes((run + "/execution/" + execution.getId()).getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void beforeJob(JobExecution execution) {
        jobRun = jobRun(execution);
        emitter.emit(event(RunEventType.START, jobRun, RunKind.JOB, spec.name(), parentRun(), parentJob(), jobInputs(), jobOutputs(), null));
    }

    @Override
    public void afterJob(JobExecution execution) {
        emitter.emit(event(terminal(execution.getStatus()), jobRun, RunKind.JOB, spec.name(), parentRun(), parentJob(), jobInputs(), jobOutputs(),
                execution.getStatus() == BatchStatus.COMPLETED ? null : RunSummaries.reason(execution.getAllFailureExceptions())));
    }

    private @Nullable RunId parentRun() {
        return parent == null ? null : parent.run();
    }

    private @Nullable String parentJob() {
        return parent == null ? null : parent.job();
    }

    /** The listener of one step: {@code table}'s step, or its gate when {@code gate}. */
    StepExecutionListener step(TableSpec table, boolean gate) {
        String name = gate ? GateStep.stepName(table) : table.stepName();
        return new StepExecutionListener() {
            @Override
            public void beforeStep(StepExecution se) {
                emitter.emit(stepEvent(RunEventType.START, table, gate, name, se));
            }

            @Override
            public ExitStatus afterStep(StepExecution se) {
                emitter.emit(stepEvent(terminal(se.getStatus() == BatchStatus.STARTED ? BatchStatus.COMPLETED : se.getStatus()),
                        table, gate, name, se));
                return null;
            }
        };
    }

    private RunEvent stepEvent(RunEventType type, TableSpec table, boolean gate, String name, StepExecution se) {
        RunId stepRun = new RunId(UUID.nameUUIDFromBytes((jobRun + "/" + name + "/" + se.getId()).getBytes(StandardCharsets.UTF_8)));
        List<LineageDataset> inputs = new ArrayList<>();
        List<LineageDataset> outputs = new ArrayList<>();
        boolean done = type != RunEventType.START;
        ExecutionContext ctx = se.getExecutionContext();
        if (gate) {
            Integer written = quality == null ? null : new PartitionVersions(quality.dsl()).writtenBy(table.table(), table.outputPartition(partition), run);
            LineageDataset judged = table(table, null, null, written == null ? Pin.CURRENT : Pin.written(written));
            inputs.add(done ? withQuality(judged, table) : judged);
        } else if (table.layer() == Layer.BRONZE) {
            LineageDataset landing = landing(spec.source(table.source()).orElseThrow());
            inputs.add(landing);
            outputs.add(withColumns(table(table, null, done ? se.getWriteCount() : null, done ? Pin.CURRENT : Pin.NONE), table, landing));
        } else if (ctx.containsKey(StepMetrics.DEFERRED_TO)) {
            // a rollup step that wrote nothing: the wave's later member rebuilt the partition, reading the whole range
        } else {
            spec.table(table.inputTable().orElseThrow())
                    .ifPresent(in -> inputs.add(table.isRollup() ? rolledUp(in, table) : table(in, null, null, Pin.CURRENT)));
            ColumnLineage.referenced(spec, table).forEach(t -> inputs.add(table(t, null, null, Pin.CURRENT)));
            Integer written = done && ctx.containsKey(StepMetrics.VERSION) ? ctx.getInt(StepMetrics.VERSION) : null;
            LineageDataset out = written == null ? table(table, null, done ? se.getWriteCount() : null, Pin.NONE)
                    : table(table, written.toString(), se.getWriteCount(), Pin.written(written));
            outputs.add(withColumns(out, table, null));
        }
        String error = type == RunEventType.FAIL ? RunSummaries.reason(se.getFailureExceptions()) : null;
        return event(type, stepRun, RunKind.STEP, spec.name() + "." + name, jobRun, spec.name(), inputs, outputs,
                error, gate || table.layer() == Layer.BRONZE ? null : table.sql());
    }

    /** {@code d} with what this run's gate of {@code table} found (from sluice.quality_results). */
    private LineageDataset withQuality(LineageDataset d, TableSpec table) {
        if (quality == null) {
            return d;
        }
        Partition judged = table.outputPartition(partition);
        List<LineageDataset.Assertion> assertions = new ArrayList<>();
        Map<String, Long> nulls = new LinkedHashMap<>();
        Long rowCount = null;
        for (var r : new QualityResultRepository(quality.dsl()).latestOfRun(table.table(), judged, run)) {
            String column = table.checks().stream().filter(c -> c.id().equals(r.checkId())).findFirst().map(c -> c.column()).orElse(null);
            assertions.add(new LineageDataset.Assertion(r.checkId(), "PASSED".equals(r.status()) || "INSUFFICIENT_HISTORY".equals(r.status()),
                    column));
            if ("expect_column_values_to_not_be_null".equals(r.expectation()) && column != null) {
                nulls.put(column, r.unexpectedCount());
                rowCount = r.elementCount();
            }
            if ("expect_table_row_count_to_be_between".equals(r.expectation())
                    || "expect_column_values_to_be_in_partition".equals(r.expectation())) {
                // both judge every row of the partition: their element count is its row count
                rowCount = r.elementCount();
            }
        }
        return d.withQuality(new LineageDataset.Quality(rowCount, nulls, assertions));
    }

    /** {@code d} with the column lineage of {@code table} (a Bronze table's columns come from {@code landing}). */
    private LineageDataset withColumns(LineageDataset d, TableSpec table, @Nullable LineageDataset landing) {
        List<LineageDataset.ColumnInput> columns = new ArrayList<>();
        Map<String, LineageDataset> named = new LinkedHashMap<>();
        for (ColumnLineage.Input in : ColumnLineage.of(spec, table)) {
            LineageDataset from = landing != null ? landing : named.computeIfAbsent(in.dataset(), n -> spec.tables().stream()
                    .filter(t -> t.table().qualifiedName().equals(n)).findFirst()
                    .map(t -> table(t, null, null, Pin.NONE))
                    .orElse(new LineageDataset(warehouse, n, List.of(), null, null, null, null)));
            columns.add(new LineageDataset.ColumnInput(in.column(), from.namespace(), from.name(), in.field(), in.subtype(), in.masking()));
        }
        return d.withColumnLineage(columns);
    }

    private RunEvent event(RunEventType type, RunId id, RunKind kind, String job, @Nullable RunId parent, @Nullable String parentJob,
            List<LineageDataset> inputs, List<LineageDataset> outputs, @Nullable String error) {
        return event(type, id, kind, job, parent, parentJob, inputs, outputs, error, null);
    }

    private RunEvent event(RunEventType type, RunId id, RunKind kind, String job, @Nullable RunId parent, @Nullable String parentJob,
            List<LineageDataset> inputs, List<LineageDataset> outputs, @Nullable String error, @Nullable String sql) {
        Instant start = partition.nominalStart() == null ? null : partition.nominalStart().toInstant(ZoneOffset.UTC);
        Instant end = partition.nominalEnd() == null ? null : partition.nominalEnd().toInstant(ZoneOffset.UTC);
        return new RunEvent(type, id, kind, job, parent, parentJob, partition, start, end, Instant.now(), inputs, outputs, sql,
                spec.hash(), error, run);
    }

    private static RunEventType terminal(BatchStatus status) {
        return switch (status) {
            case COMPLETED -> RunEventType.COMPLETE;
            case STOPPED, STOPPING, ABANDONED -> RunEventType.ABORT;
            default -> RunEventType.FAIL;
        };
    }

    private List<LineageDataset> jobInputs() {
        return spec.sources().stream().map(this::landing).toList();
    }

    private List<LineageDataset> jobOutputs() {
        return spec.tables().stream().map(t -> table(t, null, null, Pin.NONE)).toList();
    }

    /**
     * {@code t} as lineage names it. {@code version} is the warehouse engine's version (or null); a
     * table kept as files is named by its location and versioned by the snapshot {@code pin} picks.
     */
    private LineageDataset table(TableSpec t, @Nullable String version, @Nullable Long rows, Pin pin) {
        List<LineageDataset.Field> fields = new ArrayList<>();
        for (ColumnSpec c : t.columns()) {
            fields.add(new LineageDataset.Field(c.name(), c.typeId()));
        }
        Partition out = t.outputPartition(partition);
        String key = out.key();
        Optional<StoredTable> files = engine.stored(t, out, pin.written());
        if (files.isEmpty()) {
            return new LineageDataset(warehouse, t.table().qualifiedName(), fields, "_partition", key, version, rows);
        }
        StoredTable f = files.get();
        LocationName at = LocationName.of(f.location());
        return new LineageDataset(at.namespace(), at.name(), fields, f.partitionColumn(), key, pin.versioned() ? f.currentVersion() : null, rows,
                List.of(), null, new LineageDataset.CatalogTable(warehouse, t.table().qualifiedName(), f.storageLayer(), f.fileFormat()));
    }

    /**
     * The input of a rollup step: every partition of {@code in} inside the rollup partition, its
     * key written {@code first/last} ({@link LineageDataset#partitionKey()}).
     */
    private LineageDataset rolledUp(TableSpec in, TableSpec rollup) {
        LineageDataset d = table(in, null, null, Pin.CURRENT);
        Partition[] range = TableSpec.inputRange(rollup.outputPartition(partition), spec.partitionKind());
        return d.readAs(range[0].key() + "/" + range[1].key());
    }

    /** A source's landed files: named by the path template without its partition part. */
    private LineageDataset landing(SourceSpec s) {
        Path template = Path.of(s.pathTemplate()).toAbsolutePath().normalize();
        boolean underHome = template.startsWith(home);
        Path rel = underHome ? home.relativize(template) : template;
        List<String> parts = new ArrayList<>();
        for (Path p : rel) {
            if (!p.toString().contains(SourceSpec.PARTITION_PLACEHOLDER)) {
                parts.add(p.toString());
            }
        }
        String name = (underHome ? "" : "/") + String.join("/", parts);
        List<LineageDataset.Field> fields = s.contract().columns().stream()
                .map(c -> new LineageDataset.Field(c.name(), c.typeId())).toList();
        return new LineageDataset("file://" + (underHome ? home : Path.of("/")), name, fields,
                s.partitioned() ? "partition" : null, s.partitioned() ? partition.key() : null, null, null);
    }
}
