package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DatasetRefTest {

    @Test
    void parsesAndLowerCases() {
        DatasetRef ref = DatasetRef.parse("Gold.Route_Daily");
        assertThat(ref.schema()).isEqualTo("gold");
        assertThat(ref.table()).isEqualTo("route_daily");
        assertThat(ref.qualifiedName()).isEqualTo("gold.route_daily");
    }

    @Test
    void refusesWhatIsNotSchemaDotTable() {
        assertThatThrownBy(() -> DatasetRef.parse("flights")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DatasetRef.parse("a.b.c")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DatasetRef.parse("gold.x;drop")).isInstanceOf(IllegalArgumentException.class);
    }
}
