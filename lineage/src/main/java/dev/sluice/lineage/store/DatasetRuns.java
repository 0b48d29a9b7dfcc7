package dev.sluice.lineage.store;

import java.time.OffsetDateTime;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * The runs that wrote a dataset, for {@link LineageRepository#runs}: the completed step runs of
 * the lineage edges (with the state, nominal time and error of an ingested run), and the ingested
 * runs that named the dataset as an output but left no edge for it. One query (UNION ALL).
 */
final class DatasetRuns {

    private final DSLContext dsl;

    DatasetRuns(DSLContext dsl) {
        this.dsl = dsl;
    }

    private static Field<String> s(String table, String column) {
        return DSL.field(DSL.name(table, column), String.class);
    }

    private static Field<OffsetDateTime> t(String table, String column) {
        return DSL.field(DSL.name(table, column), OffsetDateTime.class);
    }

    Result<? extends Record> of(String dataset, @Nullable String partition) {
        Table<?> e = LineageRepository.EDGES.as("e");
        Table<?> r = LineageRuns.RUNS.as("r");
        Condition edge = s("e", "output_name").eq(dataset);
        Condition ingested = DSL.trueCondition();
        if (partition != null) {
            edge = edge.and(s("e", "partition_key").eq(partition));
            ingested = s("r", "partition_key").eq(partition);
        }
        Field<String> version = s("e", "output_version");
        Field<Long> rows = DSL.field(DSL.name("e", "output_rows"), Long.class);
        var completed = dsl.select(s("e", "run_id").as("run_id"), s("e", "parent_run_id").as("parent_run_id"), s("e", "job").as("job"),
                        s("e", "partition_key").as("partition_key"), version.as("output_version"), rows.as("output_rows"),
                        DSL.groupConcatDistinct(s("e", "input_name")).as("inputs"), DSL.max(t("e", "event_time")).as("completed_at"),
                        DSL.coalesce(s("r", "state"), DSL.inline("COMPLETE")).as("state"), t("r", "nominal_start_time").as("nominal_time"),
                        s("r", "error_message").as("error_message"))
                .from(e).leftJoin(r).on(s("r", "run_id").eq(s("e", "run_id"))).where(edge)
                .groupBy(s("e", "run_id"), s("e", "parent_run_id"), s("e", "job"), s("e", "partition_key"), version, rows, s("r", "state"),
                        t("r", "nominal_start_time"), s("r", "error_message"));
        Table<?> o = LineageRuns.DATASETS.as("o");
        Table<?> i = LineageRuns.DATASETS.as("i");
        var unfinished = dsl.select(s("r", "run_id"), s("r", "parent_run_id"), s("r", "job"), s("r", "partition_key"),
                        DSL.inline(null, String.class), DSL.inline(null, Long.class), DSL.groupConcatDistinct(s("i", "name")),
                        DSL.coalesce(t("r", "ended_at"), t("r", "started_at")), s("r", "state"), t("r", "nominal_start_time"), s("r", "error_message"))
                .from(r)
                .join(o).on(s("o", "run_id").eq(s("r", "run_id")), s("o", "role").eq("output"), s("o", "name").eq(dataset))
                .leftJoin(i).on(s("i", "run_id").eq(s("r", "run_id")), s("i", "role").eq("input"))
                .where(ingested, DSL.notExists(DSL.selectOne().from(LineageRepository.EDGES.as("k"))
                        .where(s("k", "run_id").eq(s("r", "run_id")), s("k", "output_name").eq(dataset))))
                .groupBy(s("r", "run_id"), s("r", "parent_run_id"), s("r", "job"), s("r", "partition_key"), t("r", "ended_at"),
                        t("r", "started_at"), s("r", "state"), t("r", "nominal_start_time"), s("r", "error_message"));
        return completed.unionAll(unfinished).orderBy(DSL.field(DSL.name("completed_at")).desc()).fetch();
    }
}
