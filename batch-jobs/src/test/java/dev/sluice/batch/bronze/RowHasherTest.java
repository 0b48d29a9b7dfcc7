package dev.sluice.batch.bronze;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class RowHasherTest {

    @Test
    void equalRowsHashEquallyAndNullDiffersFromEmpty() {
        RowHasher h = new RowHasher();
        Object[] a = {LocalDateTime.parse("2001-01-01T00:01"), 14L, "ORD"};
        Object[] b = {LocalDateTime.parse("2001-01-01T00:01"), 14L, "ORD"};
        assertThat(h.hash(a)).isEqualTo(h.hash(b)).hasSize(64);
        assertThat(h.hash(new Object[] {null, "x"})).isNotEqualTo(h.hash(new Object[] {"", "x"}));
        assertThat(h.hash(new Object[] {"a", "bc"})).isNotEqualTo(h.hash(new Object[] {"ab", "c"}));
        // printf 'abc\x1f' | sha256sum
        assertThat(h.hash(new Object[] {"abc"}))
                .isEqualTo("d5e9267952b38b2580c2e845cb5f9277848e1069a3d523ad92f375383b146953");
    }
}
