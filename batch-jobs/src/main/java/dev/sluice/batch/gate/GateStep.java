package dev.sluice.batch.gate;

import dev.sluice.warehouse.meta.QuarantineStatus;
import dev.sluice.control.quality.QualityResultRepository;

import dev.sluice.engine.GateTarget;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.TransformResult;
import dev.sluice.control.version.PartitionVersions;
import dev.sluice.config.CheckFamily;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.config.Severity;
import dev.sluice.config.TableSpec;
import dev.sluice.core.FaultPoints;
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
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.QuarantineTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The gate of one table in a partition's job, run as the step {@code gate.<table>} right after the
 * table's step: source gate after Bronze (the partition's current load), transform gate after
 * Silver and sink gate after Gold (the version the table's step just wrote, not yet published).
 * Every result is recorded in {@code sluice.quality_results} in its own transaction; when no
 * {@code error} check failed, a Silver/Gold version is published (readers see it from then on),
 * else the step fails with {@link GateFailedException} and the version stays unpublished. What the
 * gate reads, which version a run wrote and the publication itself come from the pipeline's
 * {@link LayerEngine}. Not thread-safe: one instance per step.
 */
public final class GateStep implements GateEvaluator {

    private static final Logger LOG = LoggerFactory.getLogger(GateStep.class);

    /** Prefix of a gate step's name: {@code gate.<schema.table>}. */
    public static final String PREFIX = "gate.";

    private final Warehouse warehouse;
    private final LayerEngine engine;
    private final PipelineSpec spec;
    private final TableSpec table;
    private final QualityGate gate;

    /**
     * @param warehouse the control plane: quality results and quarantine are recorded there
     * @param engine the layer engine of {@code spec}'s pipeline: what the gate reads and publishes
     */
    public GateStep(Warehouse warehouse, LayerEngine engine, PipelineSpec spec, TableSpec table, QualityGate gate) {
        this.warehouse = warehouse;
        this.engine = engine;
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
     * or when the run wrote nothing new and the published version is judged), and the rows of the
     * partition's input as the table's step counted them in the same job execution (null when it
     * did not: Bronze, a restart that skipped the completed step, a step deferred to its wave's
     * writer; the gate then counts them itself).
     */
    public record Request(Partition partition, Partition judged, RunId run, @Nullable Integer version, @Nullable Long inputRows) {
    }

    /** Evaluates, records and (Silver/Gold) publishes: {@link #finish}({@link #prepare}, {@link #evaluate}). */
    public GateResult run(Partition partition, RunId run) {
        Request r = prepare(partition, run, null);
        return finish(r, evaluate(r));
    }

    /**
     * What the gate of {@code partition} in {@code run} judges. A {@code merge-on-key} version the
     * run wrote that was refused at publication ({@link PartitionVersions#refused}: a restart after
     * {@link dev.sluice.control.version.StaleVersionException}) is first built again on the
     * version published now, in its own transaction, and the new version is judged; so is a version
     * of any table that was pruned while it waited ({@link dev.sluice.engine.LayerWriter#pruned}: its gate failed, and
     * later versions were published before the restart).
     *
     * @param inputRows the rows of the partition's input as the table's step just counted them
     *     (its {@code TransformResult}), null when unknown
     */
    public Request prepare(Partition partition, RunId run, @Nullable Long inputRows) {
        Partition out = table.outputPartition(partition);
        Integer version = table.layer() == Layer.BRONZE ? null : new PartitionVersions(warehouse.dsl()).writtenBy(table.table(), out, run);
        String why = version == null ? null : unpublishable(out, version);
        if (why != null) {
            // refused at publication, or gone: build the next version (merge-on-key: on the one published now)
            TransactionTemplate write = new TransactionTemplate(warehouse.transactionManager());
            TransformResult rebuilt = write.execute(status -> engine.write(table, partition, run));
            LOG.warn("{} partition {}: version {} {}; built {}", table.table(), out, version, why,
                    rebuilt.unchanged() ? "nothing new" : "version " + rebuilt.version());
            return new Request(partition, out, run, rebuilt.unchanged() ? null : rebuilt.version(), rebuilt.inputRows());
        }
        return new Request(partition, out, run, version, inputRows);
    }

    /**
     * Why {@code version} of partition {@code out} can never be published as it is, or null: a
     * {@code merge-on-key} version refused at publication, or a version of any table pruned while it
     * waited. A {@code merge-on-key} version published once (since superseded) is neither: its
     * restarted gate publishes nothing again.
     */
    private @Nullable String unpublishable(Partition out, int version) {
        PartitionVersions versions = new PartitionVersions(warehouse.dsl());
        if (table.mergeOnKey() && versions.wasPublished(table.table(), out, version)) {
            return null;
        }
        if (table.mergeOnKey() && !versions.builtOnPublished(table.table(), out, version)) {
            return "was refused (another version was published since it was built)";
        }
        return engine.pruned(table, out, version) ? "was pruned while it waited for publication" : null;
    }

    /** Evaluates the declared checks of one partition (no transaction is held meanwhile). */
    @Override
    public GateResult evaluate(Request r) {
        if (table.checks().isEmpty()) {
            return new GateResult(table.table(), r.judged(), boundary(), List.of(), 0);
        }
        QualityResultRepository results = new QualityResultRepository(warehouse.dsl());
        PartitionSource source = engine.gateSource(table, target(r));
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
    public Map<Partition, GateResult> evaluateAll(List<Request> requests) {
        Map<Partition, GateResult> out = new HashMap<>();
        boolean distinct = requests.stream().map(Request::judged).distinct().count() == requests.size();
        boolean shareable = distinct && requests.size() > 1 && !table.checks().isEmpty()
                && (table.layer() == Layer.BRONZE || requests.stream().allMatch(r -> r.version() != null));
        if (!shareable) {
            requests.forEach(r -> out.put(r.judged(), evaluate(r)));
            return out;
        }
        QualityResultRepository results = new QualityResultRepository(warehouse.dsl());
        PartitionBatch batch = engine.gateWave(table, requests.stream().map(GateStep::target).toList());
        out.putAll(gate.evaluateAll(table.table(), boundary(), batch, table.checks(),
                (checkId, before) -> results.acceptedHistoryByPartition(table.table(), checkId, before)));
        return out;
    }

    /**
     * Adds the quarantine-share results to {@code declared}, records everything in its own
     * transaction, and publishes a Silver/Gold version when no error check failed.
     *
     * @return the gate's whole result
     * @throws GateFailedException when an {@code error} check failed, or had no data where its
     *     {@code no_data} policy blocks
     */
    public GateResult finish(Request r, GateResult declared) {
        DSLContext dsl = warehouse.dsl();
        long start = System.nanoTime();
        List<CheckResult> all = new ArrayList<>(declared.checks());
        all.addAll(quarantineShares(dsl, r));
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
            engine.publish(table, r.judged(), r.version(), r.run());
        }
        return result;
    }

    /** What {@code r} judges, as the layer engine reads it. */
    private static GateTarget target(Request r) {
        return new GateTarget(r.judged(), r.version());
    }

    /**
     * The share of the partition's input rows each quarantine rule with a {@code max_share} sent to
     * quarantine, judged against it (family validity; the rows themselves are in the quarantine).
     * The input rows are the step's count when the request has it, else counted again.
     */
    private List<CheckResult> quarantineShares(DSLContext dsl, Request request) {
        List<QuarantineRule> judged = table.quarantine().stream().filter(r -> r.maxShare() != null).toList();
        if (judged.isEmpty()) {
            return List.of();
        }
        Partition out = request.judged();
        long input = request.inputRows() != null ? request.inputRows() : engine.inputRows(table, request.partition());
        Field<String> ruleId = DSL.field(DSL.name("rule_id"), String.class);
        Map<String, Integer> quarantined = dsl.select(ruleId, DSL.count()).from(QuarantineTable.TABLE)
                .where(DSL.field(DSL.name("pipeline")).eq(spec.name()), DSL.field(DSL.name("dataset")).eq(table.table().qualifiedName()),
                        DSL.field(DSL.name("partition_key")).eq(out.key()), DSL.field(DSL.name("status")).eq(QuarantineStatus.OPEN.name()))
                .groupBy(ruleId).fetchMap(ruleId, DSL.count());
        List<CheckResult> out2 = new ArrayList<>();
        for (QuarantineRule r : judged) {
            int n = quarantined.getOrDefault(r.id(), 0);
            double share = input == 0 ? 0 : (double) n / input;
            boolean held = share <= r.maxShare();
            CheckStatus status = held ? CheckStatus.PASSED
                    : r.severity() == Severity.ERROR ? CheckStatus.FAILED : CheckStatus.WARNED;
            out2.add(new CheckResult("quarantine_" + r.id(), "quarantine_share_at_most", CheckFamily.VALIDITY,
                    r.severity(), status, share, share, "at most " + r.maxShare() + " of input rows quarantined by rule " + r.id(),
                    n + " of " + input + " input row(s) quarantined by rule " + r.id(), input, n, List.of(), List.of()));
        }
        return out2;
    }

    /** One line per check that did not hold, for the run summary. */
    public static List<String> warnings(GateResult result) {
        return result.checks().stream().filter(c -> c.status() == CheckStatus.WARNED)
                .map(c -> "quality " + result.boundary().name().toLowerCase(Locale.ROOT) + " " + result.dataset()
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

    private static String failures(GateResult result) {
        return result.checks().stream().filter(CheckResult::stops)
                .map(GateStep::describe).collect(Collectors.joining("; "));
    }

    private static String describe(CheckResult c) {
        return "check " + c.checkId() + " (" + c.expectation() + ") " + (c.status() == CheckStatus.NO_DATA ? "had no data" : "failed")
                + ": " + c.message() + " (required: " + c.threshold() + ")";
    }
}
