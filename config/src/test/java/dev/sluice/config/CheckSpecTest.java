package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link CheckSpec}'s accessors of the parameters. */
class CheckSpecTest {

    /** Issue 51 item 7: {@code value_set: [null]} is a list holding a null, not a NullPointerException. */
    @Test
    void aListParameterKeepsItsNulls() {
        CheckSpec spec = new CheckSpec("s", Expectation.EXPECT_COLUMN_VALUES_TO_NOT_BE_IN_SET, Severity.ERROR, null, "n",
                Map.of("value_set", Arrays.asList(null, "a")));
        assertThat(spec.list("value_set")).containsExactly(null, "a");
        assertThat(spec.list("regex_list")).isEmpty();
        assertThatThrownBy(() -> spec.list("value_set").add("b")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(spec.list("value_set")).isNotSameAs(spec.params().get("value_set")).isEqualTo(List.of(Arrays.asList(null, "a")).get(0));
    }
}
