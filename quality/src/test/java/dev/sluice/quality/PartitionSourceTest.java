package dev.sluice.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.Partition;
import dev.sluice.spark.LakehouseCatalog;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gates' engine-neutral sources: neither a JDBC query nor a lakehouse table snapshot shows its
 * password (no session is started here).
 */
class PartitionSourceTest {

    private static final Partition DAY = Partition.daily(LocalDate.of(2001, 1, 2));

    @Test
    void aJdbcQueryHidesItsPassword() {
        PartitionSource source = new PartitionSource.JdbcQuery("jdbc:h2:mem:x", "sa", "s3cret", "SELECT 1", null, null);
        PartitionBatch batch = new PartitionBatch.JdbcQueries("jdbc:h2:mem:x", "sa", "s3cret", "t b", List.of("_partition"),
                "_partition", null, List.of(new PartitionBatch.Member(DAY, "b._partition = '2001-01-02'", null)));

        assertThat(source.toString()).isEqualTo("PartitionSource[jdbc:h2:mem:x, user=sa, password=****, query=SELECT 1]");
        assertThat(batch.toString()).isEqualTo("PartitionBatch[jdbc:h2:mem:x, user=sa, password=****, 1 partition(s) of t b]");
    }

    @Test
    void aLakehouseCatalogHidesItsPassword() {
        LakehouseCatalog catalog = new LakehouseCatalog("jdbc:h2:mem:x", "sa", "s3cret", "/lake");
        PartitionSource snapshot = new PartitionSource.TableSnapshot(catalog, "sluice.silver.flights", 42L,
                "_sluice_partition = '2001-01-02'", List.of("`_sluice_partition` AS `_partition`"), null, null);

        assertThat(snapshot.toString()).doesNotContain("s3cret").contains("password=****");
        assertThatThrownBy(() -> new PartitionSource.TableSnapshot(catalog, "t", null, "true", List.of(), null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one column");
    }

    @Test
    void aBatchRefusesAPartitionTwice() {
        PartitionBatch.Member m = new PartitionBatch.Member(DAY, "true", null);
        assertThatThrownBy(() -> new PartitionBatch.TableSnapshot(new LakehouseCatalog("jdbc:h2:mem:x", "sa", "", "/lake"), "t", null, List.of(),
                "_partition", null, List.of(m, m)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    }
}
