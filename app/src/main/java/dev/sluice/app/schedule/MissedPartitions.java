package dev.sluice.app.schedule;

import dev.sluice.core.Partition;
import dev.sluice.warehouse.meta.MissedPartitionTable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/** The partitions a scheduled fire skipped on purpose ({@link MissedPartitionTable}). Auto-commits; thread-safe. */
public final class MissedPartitions {

    private static final Table<?> T = MissedPartitionTable.TABLE;
    private static final Field<String> PIPELINE = DSL.field(DSL.name("pipeline"), String.class);
    private static final Field<String> PARTITION = DSL.field(DSL.name("partition_key"), String.class);
    private static final Field<OffsetDateTime> SCHEDULED = DSL.field(DSL.name("scheduled_at"), OffsetDateTime.class);
    private static final Field<OffsetDateTime> RECORDED = DSL.field(DSL.name("recorded_at"), OffsetDateTime.class);
    private static final Field<String> REASON = DSL.field(DSL.name("reason"), String.class);

    private final DSLContext dsl;

    MissedPartitions(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Records {@code partition} of {@code pipeline} as MISSED (once; a second record of it is ignored). */
    void record(String pipeline, Partition partition, Instant scheduled, String reason) {
        int updated = dsl.update(T).set(REASON, reason).where(PIPELINE.eq(pipeline), PARTITION.eq(partition.key())).execute();
        if (updated == 0) {
            dsl.insertInto(T).set(PIPELINE, pipeline).set(PARTITION, partition.key())
                    .set(SCHEDULED, scheduled.atOffset(ZoneOffset.UTC)).set(RECORDED, OffsetDateTime.now(ZoneOffset.UTC))
                    .set(REASON, reason).execute();
        }
    }

    /** The missed partition keys of {@code pipeline}, in order. */
    public static List<String> keys(DSLContext dsl, String pipeline) {
        return dsl.select(PARTITION).from(T).where(PIPELINE.eq(pipeline)).orderBy(PARTITION).fetch(PARTITION);
    }
}
