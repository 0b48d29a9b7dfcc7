package dev.sluice.app.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.batch.freshness.DatasetFreshness;
import dev.sluice.batch.freshness.FreshnessMonitor;
import dev.sluice.config.PipelineSpec;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * Prometheus metrics of what the warehouse recorded, for {@code GET /actuator/prometheus} of
 * {@code sluice serve}: one-off CLI runs, scheduled runs and hot-path consumers all leave their
 * record there, so the server reports them whoever ran them. Each scrape reads the warehouse anew
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
 *       stored per topic partition (its rate is events/s into the sink).</li>
 * </ul>
 * Thread-safe.
 */
public final class WarehouseMetrics {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DSLContext dsl;
    private final @Nullable PipelineSpec spec;
    private final Clock clock;

    /**
     * @param spec the served pipeline (its partition kind and declared datasets), or null
     */
    public WarehouseMetrics(DSLContext dsl, @Nullable PipelineSpec spec, Clock clock) {
        this.dsl = dsl;
        this.spec = spec;
        this.clock = clock;
    }

    /** The Prometheus text exposition of the warehouse's record now. */
    public String scrape() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        runs(registry);
        steps(registry);
        gates(registry);
        freshness(registry);
        hotPath(registry);
        String text = registry.scrape();
        registry.close();
        return text;
    }

    private void runs(PrometheusMeterRegistry r) {
        for (Record row : dsl.select(f("pipeline"), f("status"), DSL.count()).from(t("run")).groupBy(f("pipeline"), f("status")).fetch()) {
            gauge(r, "sluice.runs", "attempts recorded in sluice.run", "attempts", Tags.of("pipeline", s(row.get(0)), "status", s(row.get(1))),
                    row.get(2, Number.class).doubleValue());
        }
        for (Record row : dsl.select(f("pipeline"), f("status"), f("started_at"), f("ended_at")).from(t("run").as("x"))
                .where(DSL.field(DSL.name("x", "started_at")).eq(DSL.field(DSL.select(DSL.max(DSL.field(DSL.name("y", "started_at"))))
                        .from(t("run").as("y")).where(DSL.field(DSL.name("y", "pipeline")).eq(DSL.field(DSL.name("x", "pipeline")))))))
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
        for (Record row : dsl.select(f("pipeline"), f("summary_json")).from(t("run").as("x"))
                .where(DSL.field(DSL.name("x", "status")).eq("COMPLETED"),
                        DSL.field(DSL.name("x", "ended_at")).eq(DSL.field(DSL.select(DSL.max(DSL.field(DSL.name("y", "ended_at"))))
                                .from(t("run").as("y")).where(DSL.field(DSL.name("y", "pipeline")).eq(DSL.field(DSL.name("x", "pipeline"))),
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
                Tags tags = Tags.of("pipeline", s(row.get(0)), "step", step.path("step").asText(), "layer", step.path("layer").asText().toLowerCase(java.util.Locale.ROOT));
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
        Field<Long> latest = dev.sluice.batch.gate.QualityResultRepository.latestOf("r");
        var p = DSL.field(DSL.name("r", "pipeline"));
        var d = DSL.field(DSL.name("r", "dataset"));
        var fam = DSL.field(DSL.name("r", "family"));
        var st = DSL.field(DSL.name("r", "status"));
        for (Record row : dsl.select(p, d, fam, st, DSL.count()).from(t("quality_results").as("r"))
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
        for (Record row : dsl.select(f("group_id"), f("topic"), f("kafka_partition"), f("next_offset")).from(t("hot_offset")).fetch()) {
            gauge(r, "sluice.hotpath.stored.offset", "the next offset the hot path stored per topic partition", "offset",
                    Tags.of("group", s(row.get(0)), "topic", s(row.get(1)), "partition", s(row.get(2))), row.get(3, Number.class).doubleValue());
        }
    }

    private String kind() {
        return spec == null ? "unknown" : spec.partitionKind().id();
    }

    private static void gauge(PrometheusMeterRegistry r, String name, String help, String unit, Tags tags, double value) {
        Gauge.builder(name, () -> value).description(help).baseUnit(unit.equals("seconds") ? "seconds" : null).tags(tags).register(r);
    }

    private static String s(@Nullable Object o) {
        return o == null ? "" : o.toString();
    }

    private static org.jooq.Table<?> t(String name) {
        return DSL.table(DSL.name("sluice", name));
    }

    private static Field<Object> f(String name) {
        return DSL.field(DSL.name(name));
    }
}
