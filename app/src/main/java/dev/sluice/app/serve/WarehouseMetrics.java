package dev.sluice.app.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.control.quality.QualityResultRepository;
import dev.sluice.control.run.RunRepository;
import dev.sluice.config.PipelineSpec;
import dev.sluice.hotpath.HotOffsets;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.LineageTally;
import dev.sluice.operations.freshness.DatasetFreshness;
import dev.sluice.operations.freshness.FreshnessMonitor;
import dev.sluice.warehouse.meta.HotOffsetTable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Locale;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * Prometheus metrics of what the warehouse recorded, for {@code GET /actuator/prometheus} of
 * {@code sluice serve} and {@code sluice scheduler --serve-port}: one-off CLI runs, scheduled runs
 * and hot-path consumers all leave their record there, so the server reports them whoever ran them;
 * a scheduler adds the live lineage queue of the loads it runs itself. Each scrape reads the warehouse anew
 * into a fresh Micrometer registry (no stale series). Names follow Micrometer conventions (dots,
 * base units: seconds, rows), rendered by Micrometer's Prometheus registry:
 * <ul>
 *   <li>{@code sluice_runs{pipeline,status}}: attempts recorded in {@code sluice.run};</li>
 *   <li>{@code sluice_run_last_duration_seconds{pipeline,status,partition_kind}}: the latest attempt's wall time;</li>
 *   <li>{@code sluice_step_rows{pipeline,step,layer,kind}}: rows of each step of the latest completed
 *       attempt, kind = read, written, input, quarantined, collapsed (equal to its run summary);</li>
 *   <li>{@code sluice_step_duration_seconds{pipeline,step,layer}}: the same steps' wall time;</li>
 *   <li>{@code sluice_gate_results{pipeline,dataset,family,status}}: the latest result of each check
 *       of each partition, counted;</li>
 *   <li>{@code sluice_dataset_tslu_seconds{pipeline,dataset}} and
 *       {@code sluice_dataset_freshness_state{pipeline,dataset}} (0 OK, 1 WARN, 2 BREACH, -1 NEVER)
 *       for the served pipeline's declared datasets;</li>
 *   <li>{@code sluice_hotpath_stored_offset{group,topic,partition}}: the next offset the hot path
 *       stored per topic partition;</li>
 *   <li>{@code sluice_hotpath_consumer_lag_records{group,topic,partition}}: the consumer's lag after
 *       its last batch of the partition (log-end offset minus position, records);</li>
 *   <li>{@code sluice_hotpath_events_total{group,topic,partition}}: events stored in the sink from
 *       the partition (a counter: its rate() is events/s; a redelivered event is not counted again);</li>
 *   <li>{@code sluice_hotpath_events_per_second{group,topic,partition}}: the same as a moving average
 *       with a 60 s time constant, decayed to the scrape ({@link dev.sluice.hotpath.HotOffsets});</li>
 *   <li>{@code sluice_hotpath_latency_seconds{group,topic,partition,stat}}: the last batch's
 *       event-to-sink latency (its store time minus the records' Kafka timestamps), stat = max, p50;</li>
 *   <li>{@code sluice_hotpath_last_store_age_seconds{group,topic,partition}}: time since the last store;</li>
 *   <li>{@code sluice_lineage_run_events_total{pipeline,outcome}}: the lineage events of every
 *       recorded attempt (one-off CLI runs and scheduled ones alike), outcome = sent, dropped (the
 *       queue was full), failed;</li>
 *   <li>for a process that runs loads itself ({@code sluice scheduler --serve-port}), given its
 *       {@link LineageTally}: {@code sluice_lineage_queue_depth}, the events waiting in its lineage
 *       queues now, and {@code sluice_lineage_events_total{outcome}} since it started.</li>
 * </ul>
 * Thread-safe.
 */
public final class WarehouseMetrics {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DSLContext dsl;
    private final @Nullable PipelineSpec spec;
    private final Clock clock;
    private final @Nullable LineageTally live;

    /**
     * Metrics of the warehouse's record only (a process that runs no loads).
     *
     * @param spec the served pipeline (its partition kind and declared datasets), or null
     */
    public WarehouseMetrics(DSLContext dsl, @Nullable PipelineSpec spec, Clock clock) {
        this(dsl, spec, clock, null);
    }

    /**
     * @param spec the served pipeline (its partition kind and declared datasets), or null
     * @param live the lineage statistics of the loads this process runs, or null when it runs none
     */
    public WarehouseMetrics(DSLContext dsl, @Nullable PipelineSpec spec, Clock clock, @Nullable LineageTally live) {
        this.dsl = dsl;
        this.spec = spec;
        this.clock = clock;
        this.live = live;
    }

    /** The Prometheus text exposition of the warehouse's record now. */
    public String scrape() {
        return scrape(() -> { });
    }

    /** {@link #scrape()}, running {@code beforeRendering} between reading the record and rendering it (tests: a GC there). */
    String scrape(Runnable beforeRendering) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        runs(registry);
        steps(registry);
        gates(registry);
        freshness(registry);
        hotPath(registry);
        lineage(registry);
        beforeRendering.run();
        String text = registry.scrape();
        registry.close();
        return text;
    }

    private void runs(PrometheusMeterRegistry r) {
        for (Record row : dsl.select(f("pipeline"), f("status"), DSL.count()).from(RunRepository.TABLE).groupBy(f("pipeline"), f("status")).fetch()) {
            gauge(r, "sluice.runs", "attempts recorded in " + RunRepository.TABLE_NAME, "attempts", Tags.of("pipeline", s(row.get(0)), "status", s(row.get(1))),
                    row.get(2, Number.class).doubleValue());
        }
        for (Record row : dsl.select(f("pipeline"), f("status"), f("started_at"), f("ended_at")).from(RunRepository.TABLE.as("x"))
                .where(DSL.field(DSL.name("x", "started_at")).eq(DSL.field(DSL.select(DSL.max(DSL.field(DSL.name("y", "started_at"))))
                        .from(RunRepository.TABLE.as("y")).where(DSL.field(DSL.name("y", "pipeline")).eq(DSL.field(DSL.name("x", "pipeline")))))))
                .fetch()) {
            OffsetDateTime start = row.get(2, OffsetDateTime.class);
            OffsetDateTime end = row.get(3, OffsetDateTime.class);
            if (start != null && end != null) {
                gauge(r, "sluice.run.last.duration", "wall time of the pipeline's latest attempt", "seconds",
                        Tags.of("pipeline", s(row.get(0)), "status", s(row.get(1)), "partition_kind", kind()),
                        Duration.between(start, end).toMillis() / 1000.0);
            }
        }
    }

    private void steps(PrometheusMeterRegistry r) {
        for (Record row : dsl.select(f("pipeline"), f("summary_json")).from(RunRepository.TABLE.as("x"))
                .where(DSL.field(DSL.name("x", "status")).eq("COMPLETED"),
                        DSL.field(DSL.name("x", "ended_at")).eq(DSL.field(DSL.select(DSL.max(DSL.field(DSL.name("y", "ended_at"))))
                                .from(RunRepository.TABLE.as("y")).where(DSL.field(DSL.name("y", "pipeline")).eq(DSL.field(DSL.name("x", "pipeline"))),
                                        DSL.field(DSL.name("y", "status")).eq("COMPLETED")))))
                .fetch()) {
            JsonNode summary;
            try {
                summary = JSON.readTree(row.get(1, String.class));
            } catch (IOException | IllegalArgumentException e) {
                continue;
            }
            if (summary == null) {
                continue;
            }
            for (JsonNode step : summary.path("steps")) {
                if (step.path("gate").asBoolean(false)) {
                    continue;
                }
                Tags tags = Tags.of("pipeline", s(row.get(0)), "step", step.path("step").asText(), "layer", step.path("layer").asText().toLowerCase(Locale.ROOT));
                for (Map.Entry<String, String> k : Map.of("read", "rowsRead", "written", "rowsWritten", "input", "inputRows",
                        "quarantined", "quarantined", "collapsed", "collapsed").entrySet()) {
                    gauge(r, "sluice.step.rows", "rows of each step of the pipeline's latest completed attempt", "rows",
                            tags.and("kind", k.getKey()), step.path(k.getValue()).asDouble());
                }
                gauge(r, "sluice.step.duration", "wall time of each step of the latest completed attempt", "seconds", tags,
                        step.path("elapsedMs").asDouble() / 1000.0);
            }
        }
    }

    private void gates(PrometheusMeterRegistry r) {
        Field<Long> latest = QualityResultRepository.latestOf("r");
        var p = DSL.field(DSL.name("r", "pipeline"));
        var d = DSL.field(DSL.name("r", "dataset"));
        var fam = DSL.field(DSL.name("r", "family"));
        var st = DSL.field(DSL.name("r", "status"));
        for (Record row : dsl.select(p, d, fam, st, DSL.count()).from(QualityResultRepository.TABLE.as("r"))
                .where(DSL.field(DSL.name("r", "result_id"), Long.class).eq(latest)).groupBy(p, d, fam, st).fetch()) {
            gauge(r, "sluice.gate.results", "latest result of each check of each partition, counted", "checks",
                    Tags.of("pipeline", s(row.get(0)), "dataset", s(row.get(1)), "family", s(row.get(2)), "status", s(row.get(3))),
                    row.get(4, Number.class).doubleValue());
        }
    }

    private void freshness(PrometheusMeterRegistry r) {
        if (spec == null) {
            return;
        }
        for (DatasetFreshness f : new FreshnessMonitor(dsl, clock).status(spec)) {
            Tags tags = Tags.of("pipeline", spec.name(), "dataset", f.dataset().qualifiedName());
            gauge(r, "sluice.dataset.freshness.state", "0 OK, 1 WARN, 2 BREACH, -1 NEVER published", "state", tags, switch (f.state()) {
                case OK -> 0;
                case WARN -> 1;
                case BREACH -> 2;
                default -> -1;
            });
            if (f.tslu() != null) {
                gauge(r, "sluice.dataset.tslu", "time since the dataset's last update", "seconds", tags, f.tslu().toMillis() / 1000.0);
            }
        }
    }

    private void hotPath(PrometheusMeterRegistry r) {
        OffsetDateTime now = OffsetDateTime.now(clock);
        for (Record row : dsl.select(f("group_id"), f("topic"), f("kafka_partition"), f("next_offset"), f("lag_records"), f("events_stored"),
                f("latency_max_ms"), f("latency_p50_ms"), f("rate_eps"), f("updated_at")).from(HotOffsetTable.TABLE).fetch()) {
            Tags tags = Tags.of("group", s(row.get(0)), "topic", s(row.get(1)), "partition", s(row.get(2)));
            gauge(r, "sluice.hotpath.stored.offset", "the next offset the hot path stored per topic partition", "offset", tags,
                    row.get(3, Number.class).doubleValue());
            Number lag = row.get(4, Number.class);
            if (lag != null) {
                gauge(r, "sluice.hotpath.consumer.lag.records", "the consumer's lag after its last batch of the partition", "records", tags,
                        lag.doubleValue());
            }
            counter(r, "sluice.hotpath.events", "events stored in the sink from the partition (rate: events/s)", tags,
                    row.get(5, Number.class).doubleValue());
            Duration age = Duration.between(row.get(9, OffsetDateTime.class), now);
            Number rate = row.get(8, Number.class);
            if (rate != null) {
                gauge(r, "sluice.hotpath.events.per.second", "events stored per second, moving average over about a minute", "events/s", tags,
                        HotOffsets.rateAt(rate.doubleValue(), age));
            }
            for (int i : new int[] {6, 7}) {
                Number ms = row.get(i, Number.class);
                if (ms != null) {
                    gauge(r, "sluice.hotpath.latency", "the last batch's event-to-sink latency (store time minus Kafka record timestamp)",
                            "seconds", tags.and("stat", i == 6 ? "max" : "p50"), ms.doubleValue() / 1000.0);
                }
            }
            gauge(r, "sluice.hotpath.last.store.age", "time since the partition's last store", "seconds", tags, Math.max(0, age.toMillis()) / 1000.0);
        }
    }

    private void lineage(PrometheusMeterRegistry r) {
        for (Record row : dsl.select(f("pipeline"), DSL.sum(DSL.field(DSL.name("lineage_sent"), Long.class)),
                DSL.sum(DSL.field(DSL.name("lineage_dropped"), Long.class)), DSL.sum(DSL.field(DSL.name("lineage_failed"), Long.class)))
                .from(RunRepository.TABLE).groupBy(f("pipeline")).fetch()) {
            String[] outcomes = {"sent", "dropped", "failed"};
            for (int i = 0; i < outcomes.length; i++) {
                counter(r, "sluice.lineage.run.events", "lineage events of the recorded attempts, by outcome",
                        Tags.of("pipeline", s(row.get(0)), "outcome", outcomes[i]), row.get(i + 1, Number.class).doubleValue());
            }
        }
        if (live == null) {
            return;
        }
        LineageEmitter.Stats now = live.stats();
        gauge(r, "sluice.lineage.queue.depth", "lineage events waiting in this process's queues", "events", Tags.empty(), now.queued());
        counter(r, "sluice.lineage.events", "lineage events of the loads this process ran", Tags.of("outcome", "sent"), now.sent());
        counter(r, "sluice.lineage.events", "lineage events of the loads this process ran", Tags.of("outcome", "dropped"), now.dropped());
        counter(r, "sluice.lineage.events", "lineage events of the loads this process ran", Tags.of("outcome", "failed"), now.failed());
    }

    private String kind() {
        return spec == null ? "unknown" : spec.partitionKind().id();
    }

    private static void gauge(PrometheusMeterRegistry r, String name, String help, String unit, Tags tags, double value) {
        Gauge.builder(name, () -> value).description(help).baseUnit(unit.equals("seconds") ? "seconds" : null).tags(tags).register(r);
    }

    /**
     * A counter-like value the warehouse keeps (monotonic but for purges): Prometheus {@code _total}. A counter of the fresh
     * registry incremented by the value, not a {@code FunctionCounter}: that one holds its state object by a weak reference
     * (Micrometer's {@code CumulativeFunctionCounter}), and a GC before the rendering made it read 0.
     */
    private static void counter(PrometheusMeterRegistry r, String name, String help, Tags tags, double value) {
        Counter.builder(name).description(help).tags(tags).register(r).increment(value);
    }

    private static String s(@Nullable Object o) {
        return o == null ? "" : o.toString();
    }

    private static Field<Object> f(String name) {
        return DSL.field(DSL.name(name));
    }
}
