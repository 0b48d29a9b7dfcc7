package dev.sluice.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.config.Severity;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gates' engine-neutral sources: a JDBC query never shows its password, and the Deequ gate
 * refuses a lakehouse table snapshot by name before any Spark work (no session is started here).
 */
class PartitionSourceTest {

    private static final Partition DAY = Partition.daily(LocalDate.of(2001, 1, 2));
    private static final List<CheckSpec> CHECKS = List.of(new CheckSpec("rows", Expectation.EXPECT_TABLE_ROW_COUNT_TO_BE_BETWEEN,
            Severity.ERROR, null, null, Map.of("min_value", 1)));

    @Test
    void aJdbcQueryHidesItsPassword() {
        PartitionSource source = new PartitionSource.JdbcQuery("jdbc:h2:mem:x", "sa", "s3cret", "SELECT 1", null, null);
        PartitionBatch batch = new PartitionBatch.JdbcQueries("jdbc:h2:mem:x", "sa", "s3cret", "t b", List.of("_partition"),
                "_partition", null, List.of(new PartitionBatch.Member(DAY, "b._partition = '2001-01-02'", null)));

        assertThat(source.toString()).isEqualTo("PartitionSource[jdbc:h2:mem:x, user=sa, password=****, query=SELECT 1]");
        assertThat(batch.toString()).isEqualTo("PartitionBatch[jdbc:h2:mem:x, user=sa, password=****, 1 partition(s) of t b]");
    }

    @Test
    void theDeequGateRefusesATableSnapshot() {
        QualityGate gate = QualityGate.deequ("local[1]");
        PartitionSource snapshot = new PartitionSource.TableSnapshot("sluice.silver.flights", 42L, "_partition = '2001-01-02'", null, null);
        PartitionBatch wave = new PartitionBatch.TableSnapshot("sluice.silver.flights", 42L, List.of("_partition"), "_partition", null,
                List.of(new PartitionBatch.Member(DAY, "_partition = '2001-01-02'", null)));

        assertThatThrownBy(() -> gate.evaluate(DatasetRef.parse("silver.flights"), DAY, Boundary.TRANSFORM, snapshot, CHECKS,
                MetricHistory.NONE))
                .isInstanceOf(SluiceException.class).hasMessageContaining("over JDBC only").hasMessageContaining("sluice.silver.flights");
        assertThatThrownBy(() -> gate.evaluateAll(DatasetRef.parse("silver.flights"), Boundary.TRANSFORM, wave, CHECKS,
                PartitionHistory.NONE))
                .isInstanceOf(SluiceException.class).hasMessageContaining("over JDBC only").hasMessageContaining("sluice.silver.flights");
    }

    @Test
    void aBatchRefusesAPartitionTwice() {
        PartitionBatch.Member m = new PartitionBatch.Member(DAY, "true", null);
        assertThatThrownBy(() -> new PartitionBatch.TableSnapshot("t", null, List.of(), "_partition", null, List.of(m, m)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    }
}
