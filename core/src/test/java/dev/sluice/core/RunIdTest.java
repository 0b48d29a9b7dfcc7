package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunIdTest {

    @Test
    void isAVersion7UuidWithTheCreationTime() {
        long before = System.currentTimeMillis();
        RunId id = RunId.newId();
        long after = System.currentTimeMillis();
        assertThat(id.value().version()).isEqualTo(7);
        assertThat(id.value().variant()).isEqualTo(2);
        long millis = id.value().getMostSignificantBits() >>> 16;
        assertThat(millis).isBetween(before, after);
        assertThat(RunId.parse(id.toString())).isEqualTo(id);
    }
}
