package dev.sluice.engine;


import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.AllowedValues;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.DriftPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Contract rules' reasons fit sluice.quarantine.reason (VARCHAR(1000)) whatever the contract lists. */
class ContractRulesTest {

    private static ContractSpec contract(List<String> allowed) {
        return new ContractSpec(Path.of("codes.v1.yaml"), "codes", 1, List.of(new ColumnSpec("code", ColumnType.STRING, true, null,
                false, new AllowedValues(null, null, allowed))), DriftPolicy.FAIL);
    }

    @Test
    void aLongAllowedSetIsShownByItsFirstValuesAndACount() {
        // before #21 the reason held the whole set: 100,000 values made a reason of 788,930 characters
        List<String> values = IntStream.range(0, 100_000).mapToObj(i -> "code_" + i).toList();
        String reason = ContractRules.of(contract(values)).get(0).reason();
        assertThat(reason).startsWith("code is not one of [code_0, code_1, code_2, ")
                .endsWith("code_66, … 99933 more of 100000] (contract codes.v1)").hasSizeLessThanOrEqualTo(ContractRules.REASON_CHARS);
        assertThat(ContractRules.of(contract(List.of("a", "b"))).get(0).reason()).isEqualTo("code is not one of [a, b] (contract codes.v1)");
        String huge = ContractRules.of(contract(List.of("x".repeat(5_000), "y"))).get(0).reason();
        assertThat(huge).startsWith("code is not one of [xxx").endsWith("… (5000 characters), y] (contract codes.v1)")
                .hasSizeLessThanOrEqualTo(ContractRules.REASON_CHARS);
    }
}
