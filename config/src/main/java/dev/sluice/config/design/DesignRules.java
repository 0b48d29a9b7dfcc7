package dev.sluice.config.design;

import dev.sluice.config.PipelineSpec;
import java.util.List;

/**
 * The design rules every pipeline spec is held to (README, "Design rules"). Judged from the spec,
 * its raw YAML (what was written, before interpolation) and its contracts. Stateless.
 */
public final class DesignRules {

    private DesignRules() {
    }

    /** Every broken rule of {@code spec}, errors first, then in spec order. */
    public static List<DesignFinding> check(PipelineSpec spec) {
        return List.of();
    }
}
