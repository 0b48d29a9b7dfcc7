package dev.sluice.operations.freshness;

import dev.sluice.config.DatasetPolicy;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.operations.alert.Alert;
import dev.sluice.operations.alert.AlertSink;
import dev.sluice.warehouse.meta.PublishedPartitionTable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * Time since last update (TSLU) of each dataset a spec declares under {@code datasets:}: the time
 * since its newest publication of any partition ({@code sluice.published_partition}; its last
 * partition is the newest key published), read against the clock given
 * (a test's, or the system's). State: OK up to 1.5 × the update interval, WARN up to the SLA,
 * BREACH beyond. {@link #check} sends one alert per change of state (remembered in
 * {@code sluice.freshness_state}, so two checkers do not repeat each other's alerts). Thread-safe.
 */
public final class FreshnessMonitor {

    private static final Table<?> STATE = DSL.table(DSL.name("sluice", "freshness_state"));
    private static final Field<String> PIPELINE = DSL.field(DSL.name("pipeline"), String.class);
    private static final Field<String> DATASET = DSL.field(DSL.name("dataset"), String.class);
    private static final Field<String> STATE_COL = DSL.field(DSL.name("state"), String.class);
    private static final Field<OffsetDateTime> CHANGED = DSL.field(DSL.name("changed_at"), OffsetDateTime.class);

    private final DSLContext dsl;
    private final Clock clock;

    public FreshnessMonitor(DSLContext dsl, Clock clock) {
        this.dsl = dsl;
        this.clock = clock;
    }

    /**
     * Every declared dataset's freshness now, in declaration order: one query over
     * {@code sluice.published_partition} for all of them (none per dataset).
     */
    public List<DatasetFreshness> status(PipelineSpec spec) {
        Instant now = clock.instant();
        if (spec.datasets().isEmpty()) {
            return List.of();
        }
        Field<String> key = DSL.field(DSL.name("partition_key"), String.class);
        Field<OffsetDateTime> at = DSL.field(DSL.name("published_at"), OffsetDateTime.class);
        Map<String, Record> newest = new HashMap<>();
        for (Record r : dsl.select(DATASET, DSL.max(key), DSL.max(at)).from(PublishedPartitionTable.TABLE)
                .where(DATASET.in(spec.datasets().keySet().stream().map(DatasetRef::qualifiedName).toList())).groupBy(DATASET).fetch()) {
            newest.put(r.get(0, String.class), r);
        }
        List<DatasetFreshness> out = new ArrayList<>();
        spec.datasets().forEach((ref, policy) -> out.add(of(ref, policy, newest.get(ref.qualifiedName()), now)));
        return out;
    }

    private static DatasetFreshness of(DatasetRef ref, DatasetPolicy policy, @Nullable Record r, Instant now) {
        if (r == null || r.get(2) == null) {
            return new DatasetFreshness(ref, policy, null, null, null, FreshnessState.NEVER);
        }
        Instant at = r.get(2, OffsetDateTime.class).toInstant();
        Duration tslu = Duration.between(at, now);
        FreshnessState state = tslu.compareTo(policy.freshnessSla()) > 0 ? FreshnessState.BREACH
                : tslu.compareTo(policy.warnAfter()) > 0 ? FreshnessState.WARN : FreshnessState.OK;
        return new DatasetFreshness(ref, policy, r.get(1, String.class), at, tslu, state);
    }

    /**
     * Checks every declared dataset, records its state, and alerts {@code alerts} when the state
     * changed to WARN or BREACH (or back to OK from either).
     *
     * @return the datasets whose state changed
     */
    public List<DatasetFreshness> check(PipelineSpec spec, AlertSink alerts) {
        List<DatasetFreshness> changed = new ArrayList<>();
        for (DatasetFreshness f : status(spec)) {
            String before = dsl.select(STATE_COL).from(STATE).where(PIPELINE.eq(spec.name()), DATASET.eq(f.dataset().qualifiedName()))
                    .fetchOne(STATE_COL);
            if (f.state().name().equals(before) || (before == null && (f.state() == FreshnessState.OK || f.state() == FreshnessState.NEVER))) {
                if (before == null) {
                    remember(spec, f, null);
                }
                continue;
            }
            remember(spec, f, before);
            changed.add(f);
            Alert.Kind kind = switch (f.state()) {
                case WARN -> Alert.Kind.FRESHNESS_WARN;
                case BREACH -> Alert.Kind.FRESHNESS_BREACH;
                default -> Alert.Kind.FRESHNESS_OK;
            };
            if (f.state() == FreshnessState.NEVER) {
                continue;
            }
            alerts.send(new Alert(kind, spec.name(), f.dataset().qualifiedName(), f.lastPartition(), describe(f), clock.instant()));
        }
        return changed;
    }

    private void remember(PipelineSpec spec, DatasetFreshness f, String before) {
        OffsetDateTime now = clock.instant().atOffset(ZoneOffset.UTC);
        if (before == null) {
            dsl.insertInto(STATE).set(PIPELINE, spec.name()).set(DATASET, f.dataset().qualifiedName()).set(STATE_COL, f.state().name())
                    .set(CHANGED, now).execute();
        } else {
            dsl.update(STATE).set(STATE_COL, f.state().name()).set(CHANGED, now)
                    .where(PIPELINE.eq(spec.name()), DATASET.eq(f.dataset().qualifiedName())).execute();
        }
    }

    /** In words: "last update 2001-02-22 published 37h ago (interval PT24H, warn after PT36H, SLA PT48H)". */
    public static String describe(DatasetFreshness f) {
        if (f.tslu() == null) {
            return "never published (interval " + f.policy().updateInterval() + ", SLA " + f.policy().freshnessSla() + ")";
        }
        return "last update: partition " + f.lastPartition() + " published " + f.lastPublishedAt() + ", " + f.tslu()
                + " ago (interval " + f.policy().updateInterval() + ", warn after " + f.policy().warnAfter() + ", SLA "
                + f.policy().freshnessSla() + ")" + (f.policy().owner() == null ? "" : "; owner " + f.policy().owner());
    }
}
