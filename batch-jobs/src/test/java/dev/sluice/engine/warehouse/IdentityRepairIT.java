package dev.sluice.engine.warehouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.warehouse.Warehouse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An H2 identity generator left behind its table's rows (the state a kill left in the fault suite's
 * case {@code lake-h2:BACKFILL:252}: the restart's gate failed on a duplicate
 * {@code quality_results(result_id)}) is moved past them when the warehouse is opened; a healthy
 * one is left where it was, and so are Spring Batch's identities, which Spring Batch never uses (it
 * inserts ids from its own sequences, so its identity stays behind its rows by design).
 */
class IdentityRepairIT {

    private static final String INSERT = "INSERT INTO sluice.schema_drift (pipeline, source, partition_key, contract, file, change_kind,"
            + " column_name, outcome, detected_at) VALUES ('p', 's', '2001-01-01', 'c', 'f', 'ADDED', ?, 'ACCEPTED', CURRENT_TIMESTAMP)";

    private static List<Long> ids(Warehouse w) {
        return w.dsl().resultQuery("SELECT drift_id FROM sluice.schema_drift ORDER BY drift_id").fetch(0, Long.class);
    }

    private static long nextJobInstanceIdentity(Warehouse w) {
        return w.dsl().resultQuery("SELECT IDENTITY_BASE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'SLUICE'"
                + " AND TABLE_NAME = 'BATCH_JOB_INSTANCE' AND COLUMN_NAME = 'JOB_INSTANCE_ID'").fetchOne(0, Long.class);
    }

    @Test
    void aLaggingIdentityIsRestartedPastTheRowsAndAHealthyOneIsNot() {
        WarehouseSpec spec = new WarehouseSpec(TestHome.freshH2Url() + ";WRITE_DELAY=0", "sa", "");
        try (Warehouse w = Warehouse.open(spec)) {
            for (int i = 0; i < 3; i++) {
                w.dsl().execute(INSERT, "col" + i);
            }
            assertThat(ids(w)).containsExactly(1L, 2L, 3L);
            // as Spring Batch's JdbcJobInstanceDao does: the id from BATCH_JOB_INSTANCE_SEQ, given explicitly
            w.dsl().execute("INSERT INTO sluice.BATCH_JOB_INSTANCE (JOB_INSTANCE_ID, VERSION, JOB_NAME, JOB_KEY) VALUES (7, 0, 'j', 'k')");
            assertThat(nextJobInstanceIdentity(w)).isEqualTo(1L);
        }
        try (Warehouse w = Warehouse.open(spec)) {
            // ahead of its rows (healthy: H2 reserves values in blocks and skips the rest of a block
            // after a crash): the opening leaves it there
            w.dsl().execute("ALTER TABLE sluice.schema_drift ALTER COLUMN drift_id RESTART WITH 100");
        }
        try (Warehouse w = Warehouse.open(spec)) {
            w.dsl().execute(INSERT, "ahead");
            assertThat(ids(w)).containsExactly(1L, 2L, 3L, 100L);
            assertThat(nextJobInstanceIdentity(w)).as("Spring Batch's identity is not Sluice's to move").isEqualTo(1L);
            // behind its rows, as the kill left it: the next key would be 2, then 3, both taken
            w.dsl().execute("ALTER TABLE sluice.schema_drift ALTER COLUMN drift_id RESTART WITH 2");
        }
        try (Warehouse w = Warehouse.open(spec)) {
            w.dsl().execute(INSERT, "after the repair");
            assertThat(ids(w)).containsExactly(1L, 2L, 3L, 100L, 101L);
        }
    }
}
