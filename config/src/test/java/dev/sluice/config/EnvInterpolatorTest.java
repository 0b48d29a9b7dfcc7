package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvInterpolatorTest {

    private final EnvInterpolator env = new EnvInterpolator(Map.of("HOME_DIR", "/srv", "EMPTY", "")::get);

    @Test
    void replacesSetVariablesAndDefaults() {
        assertThat(env.interpolate("${HOME_DIR}/x").value()).isEqualTo("/srv/x");
        assertThat(env.interpolate("${MISSING:-fallback}").value()).isEqualTo("fallback");
        assertThat(env.interpolate("${EMPTY:-fallback}").value()).isEqualTo("fallback");
        assertThat(env.interpolate("${EMPTY-fallback}").value()).isEqualTo("");
        assertThat(env.interpolate("${MISSING-fallback}").value()).isEqualTo("fallback");
    }

    @Test
    void defaultsMayHoldReferences() {
        assertThat(env.interpolate("jdbc:h2:file:${URL:-${HOME_DIR}/warehouse;AUTO_SERVER=TRUE}").value())
                .isEqualTo("jdbc:h2:file:/srv/warehouse;AUTO_SERVER=TRUE");
    }

    @Test
    void dollarDollarIsALiteralDollar() {
        assertThat(env.interpolate("cost $$5").value()).isEqualTo("cost $5");
    }

    @Test
    void unsetWithoutDefaultAndMalformedAreReported() {
        EnvInterpolator.Result r = env.interpolate("${NOPE}/a");
        assertThat(r.unresolved()).containsExactly("NOPE");
        assertThat(env.interpolate("${OPEN").unresolved()).hasSize(1);
        assertThat(env.interpolate("${A:-x").unresolved()).hasSize(1);
    }
}
