package dev.sluice.batch.gate;

import dev.sluice.core.FaultPoints;
import dev.sluice.batch.bronze.LandedFileRepository;
import dev.sluice.batch.refine.LayerTransform;
import dev.sluice.batch.warehouse.LayerTables;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.quality.Boundary;
import dev.sluice.quality.CheckResult;
import dev.sluice.quality.CheckStatus;
import dev.sluice.quality.GateResult;
import dev.sluice.quality.PartitionBatch;
import dev.sluice.quality.PartitionSource;
import dev.sluice.quality.QualityGate;
import java.util.List;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record1;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The gate of one table in a partition's job, run as the step {@code gate.<table>} right after the
 * table's step: source gate after Bronze (the partition's current load), transform gate after
 * Silver and sink gate after Gold (the version the table's step just wrote, not yet published).
 * Every result is recorded in {@code sluice.quality_results} in its own transaction; when no
 * {@code error} check failed, a Silver/Gold version is published (readers see it from then on),
 * else the step fails with {@link GateFailedException} and the version stays unpublished. Not
 * thread-safe: one instance per step.
 */
public final class GateStep implements GateEvaluator {

    /** Prefix of a gate step's name: {@code gate.<schema.table>}. */
    public static final String PREFIX = "gate.";

    private final Warehouse warehouse;
    private final PipelineSpec spec;
    private final TableSpec table;
    private final QualityGate gate;

    public GateStep(Warehouse warehouse, PipelineSpec spec, TableSpec table, QualityGate gate) {
        this.warehouse = warehouse;
        this.spec = spec;
        this.table = table;
        this.gate = gate;
    }

    /** The step name of {@code table}'s gate. */
    public static String stepName(TableSpec table) {
        return PREFIX + table.stepName();
    }

    /**
     * What one partition's gate judges: the partition of the job, the table partition judged
     * ({@link Partition#NONE} for a snapshot), the run and the version it wrote (null for Bronze,
     * or when the run wrote nothing new and the published version is judged).
     */
    public record Request(Partition partition, Partition judged, RunId run, @Nullable Integer version) {
    }

    /** Evaluates, records and (Silver/Gold) publishes: {@link #finish}({@link #prepare}, {@link #evaluate}). */
    public GateResult run(Partition partition, RunId run) {
        Request r = prepare(partition, run);
        return finish(r, evaluate(r));
    }

    /** What the gate of {@code partition} in {@code run} judges. */
    public Request prepare(Partition partition, RunId run) {
        Partition out = table.outputPartition(partition);
        Integer version = table.layer() == Layer.BRONZE ? null : versionWrittenBy(warehouse.dsl(), out, run);
        return new Request(partition, out, run, version);
    }

    /** Evaluates the declared checks of one partition (no transaction is held meanwhile). */
    @Override
    public GateResult evaluate(Request r) {
        if (table.checks().isEmpty()) {
            return new GateResult(table.table(), r.judged(), boundary(), List.of(), 0);
        }
        QualityResultRepository results = new QualityResultRepository(warehouse.dsl());
        PartitionSource source = new PartitionSource.JdbcQuery(warehouse.jdbcUrl(), warehouse.spec().user(), warehouse.spec().password(),
                query(warehouse.dsl(), r), rowIdColumn(), nominalEnd(r.judged()));
        return gate.evaluate(table.table(), r.judged(), boundary(), source, table.checks(),
                checkId -> results.acceptedHistory(table.table(), checkId, r.judged()));
    }

    /**
     * Evaluates the declared checks of many partitions in one pass when they can share one read
     * (distinct partitions judged, all of Bronze or all of versions this run wrote), else one by
     * one; the results are the same either way ({@link QualityGate#evaluateAll}).
     *
     * @return each request's result, keyed by the partition judged
     */
    @Override
    public java.util.Map<Partition, GateResult> evaluateAll(List<Request> requests) {
        java.util.Map<Partition, GateResult> out = new java.util.HashMap<>();
        boolean distinct = requests.stream().map(Request::judged).distinct().count() == requests.size();
        boolean shareable = distinct && requests.size() > 1 && !table.checks().isEmpty()
                && (table.layer() == Layer.BRONZE || requests.stream().allMatch(r -> r.version() != null));
        if (!shareable) {
            requests.forEach(r -> out.put(r.judged(), evaluate(r)));
            return out;
        }
        QualityResultRepository results = new QualityResultRepository(warehouse.dsl());
        DSLContext dsl = warehouse.dsl();
        // a derived table of the judged columns (and those the conditions use): Spark reads the
        // schema of what it is given, and Bronze also holds types it cannot read (_ingested_at)
        List<Field<?>> read = new java.util.ArrayList<>(columns());
        if (table.layer() != Layer.BRONZE && read.stream().noneMatch(f -> f.getName().equals("_version"))) {
            read.add(DSL.field(DSL.name("b", "_version")));
        }
        String from = "(" + dsl.renderInlined(dsl.select(read).from(from(requests.get(0)))) + ") b";
        PartitionBatch batch = new PartitionBatch.JdbcQueries(warehouse.jdbcUrl(), warehouse.spec().user(), warehouse.spec().password(),
                from, columns().stream().map(Field::getName).toList(), "_partition", rowIdColumn(),
                requests.stream().map(r -> new PartitionBatch.Member(r.judged(), dsl.renderInlined(condition(r)), nominalEnd(r.judged())))
                        .toList());
        out.putAll(gate.evaluateAll(table.table(), boundary(), batch, table.checks(),
                (checkId, before) -> results.acceptedHistoryByPartition(table.table(), checkId, before)));
        return out;
    }

    /**
     * Adds the quarantine-share results to {@code declared}, records everything in its own
     * transaction, and publishes a Silver/Gold version when no error check failed.
     *
     * @return the gate's whole result
     * @throws GateFailedException when an {@code error} check failed
     */
    public GateResult finish(Request r, GateResult declared) {
        DSLContext dsl = warehouse.dsl();
        long start = System.nanoTime();
        List<CheckResult> all = new java.util.ArrayList<>(declared.checks());
        all.addAll(quarantineShares(dsl, r.partition(), r.judged()));
        GateResult result = new GateResult(table.table(), r.judged(), boundary(), all,
                declared.elapsedMs() + (System.nanoTime() - start) / 1_000_000);
        QualityResultRepository results = new QualityResultRepository(dsl);
        TransactionTemplate own = new TransactionTemplate(warehouse.transactionManager());
        own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        own.executeWithoutResult(status -> results.save(spec.name(), r.run(), result));
        if (!result.passed()) {
            throw new GateFailedException(table.table() + " partition " + r.judged() + ": " + failures(result)
                    + (r.version() == null ? "" : "; version " + r.version() + " is not published")
                    + ". Fix the data (then --rerun) or the check (then a plain run restarts the gate).");
        }
        if (r.version() != null) {
            FaultPoints.reach("before-publish:" + table.stepName());
            new LayerTransform(dsl, spec, table).publish(r.judged(), r.version(), r.run());
        }
        return result;
    }

    private @Nullable String rowIdColumn() {
        return table.layer() == Layer.BRONZE ? "_source_pos" : null;
    }

    private static java.time.@Nullable LocalDateTime nominalEnd(Partition judged) {
        return judged.nominalEnd();
    }

    /**
     * The share of the partition's input rows each quarantine rule with a {@code max_share} sent to
     * quarantine, judged against it (family validity; the rows themselves are in the quarantine).
     */
    private List<CheckResult> quarantineShares(DSLContext dsl, Partition partition, Partition out) {
        List<dev.sluice.config.QuarantineRule> judged = table.quarantine().stream().filter(r -> r.maxShare() != null).toList();
        if (judged.isEmpty()) {
            return List.of();
        }
        long input = new LayerTransform(dsl, spec, table).inputCount(partition);
        Field<String> ruleId = DSL.field(DSL.name("rule_id"), String.class);
        java.util.Map<String, Integer> quarantined = dsl.select(ruleId, DSL.count()).from(DSL.table(DSL.name("sluice", "quarantine")))
                .where(DSL.field(DSL.name("pipeline")).eq(spec.name()), DSL.field(DSL.name("dataset")).eq(table.table().qualifiedName()),
                        DSL.field(DSL.name("partition_key")).eq(out.key()), DSL.field(DSL.name("status")).eq("OPEN"))
                .groupBy(ruleId).fetchMap(ruleId, DSL.count());
        List<CheckResult> out2 = new java.util.ArrayList<>();
        for (dev.sluice.config.QuarantineRule r : judged) {
            int n = quarantined.getOrDefault(r.id(), 0);
            double share = input == 0 ? 0 : (double) n / input;
            boolean held = share <= r.maxShare();
            CheckStatus status = held ? CheckStatus.PASSED
                    : r.severity() == dev.sluice.config.Severity.ERROR ? CheckStatus.FAILED : CheckStatus.WARNED;
            out2.add(new CheckResult("quarantine_" + r.id(), "quarantine_share_at_most", dev.sluice.config.CheckFamily.VALIDITY,
                    r.severity(), status, share, share, "at most " + r.maxShare() + " of input rows quarantined by rule " + r.id(),
                    n + " of " + input + " input row(s) quarantined by rule " + r.id(), input, n, List.of(), List.of()));
        }
        return out2;
    }

    /** One line per check that did not hold, for the run summary. */
    public static List<String> warnings(GateResult result) {
        return result.checks().stream().filter(c -> c.status() == CheckStatus.WARNED)
                .map(c -> "quality " + result.boundary().name().toLowerCase(java.util.Locale.ROOT) + " " + result.dataset()
                        + " " + c.checkId() + " WARNED: " + c.message())
                .toList();
    }

    private Boundary boundary() {
        return switch (table.layer()) {
            case BRONZE -> Boundary.SOURCE;
            case SILVER -> Boundary.TRANSFORM;
            case GOLD -> Boundary.SINK;
        };
    }

    /** The version of the partition this run wrote and has not published, or null (nothing new: judge the published one). */
    private @Nullable Integer versionWrittenBy(DSLContext dsl, Partition out, RunId run) {
        Field<Integer> v = DSL.field(DSL.name("version"), Integer.class);
        Record1<Integer> r = dsl.select(DSL.max(v)).from(DSL.table(DSL.name("sluice", "partition_version")))
                .where(DSL.field(DSL.name("dataset")).eq(table.table().qualifiedName()),
                        DSL.field(DSL.name("partition_key")).eq(out.key()),
                        DSL.field(DSL.name("run_id")).eq(run.toString())).fetchOne();
        return r == null ? null : r.value1();
    }

    /**
     * The SELECT of exactly the rows {@code r} judges, with its values inlined (Spark runs it over
     * JDBC): {@link #columns()} from {@link #from} where {@link #condition}.
     */
    private String query(DSLContext dsl, Request r) {
        return dsl.renderInlined(dsl.select(columns()).from(from(r)).where(condition(r)));
    }

    /** The table judged, as {@code b}: Bronze, the versions of a Silver/Gold table, or its published rows. */
    private org.jooq.Table<?> from(Request r) {
        if (table.layer() != Layer.BRONZE && r.version() != null) {
            return LayerTables.table(LayerTables.versions(table.table())).as("b");
        }
        return LayerTables.table(table.table()).as("b");
    }

    /**
     * The rows {@code r} judges: Bronze, the partition's current load; Silver/Gold, the version the
     * run wrote, or the published rows.
     */
    private Condition condition(Request r) {
        Condition where = DSL.field(DSL.name("b", "_partition"), String.class).eq(DSL.inline(r.judged().key()));
        if (table.layer() == Layer.BRONZE) {
            // the current files' (source, run) as literals: no landed-file lookup per row
            return where.and(new LandedFileRepository(warehouse.dsl()).currentLoadOf(table.table().qualifiedName(), r.judged(), "b"));
        }
        return r.version() == null ? where : where.and(DSL.field(DSL.name("b", "_version")).eq(DSL.inline(r.version())));
    }

    /**
     * The columns judged: the table's declared columns and the metadata columns checks may name
     * ({@link dev.sluice.config.MetadataColumns}; {@code _partition} tells partitions apart,
     * {@code _source_pos} is the Bronze row id of unexpected values).
     */
    private List<Field<?>> columns() {
        List<Field<?>> columns = new java.util.ArrayList<>();
        table.columns().forEach(c -> columns.add(DSL.field(DSL.name("b", c.name()))));
        (table.layer() == Layer.BRONZE ? dev.sluice.config.MetadataColumns.BRONZE : dev.sluice.config.MetadataColumns.REFINED)
                .keySet().forEach(m -> columns.add(DSL.field(DSL.name("b", m))));
        return columns;
    }

    private static String failures(GateResult result) {
        return result.checks().stream().filter(c -> c.status() == CheckStatus.FAILED)
                .map(GateStep::describe).collect(Collectors.joining("; "));
    }

    private static String describe(CheckResult c) {
        return "check " + c.checkId() + " (" + c.expectation() + ") failed: " + c.message() + " (required: " + c.threshold() + ")";
    }
}
