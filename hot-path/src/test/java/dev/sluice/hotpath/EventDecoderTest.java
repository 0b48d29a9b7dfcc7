package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.AllowedValues;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.DecimalSpec;
import dev.sluice.config.DriftPolicy;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Event values are read as the batch readers read them: exactly, or the event is a violation. */
class EventDecoderTest {

    private static final EventDecoder DECODER = new EventDecoder(new ContractSpec(Path.of("e.v1.yaml"), "e", 1, List.of(
            new ColumnSpec("at", ColumnType.TIMESTAMP, false),
            ColumnSpec.decimal("amount", new DecimalSpec(12, 2), true),
            new ColumnSpec("score", ColumnType.DOUBLE, true),
            new ColumnSpec("approx", ColumnType.DOUBLE, true, null, false, AllowedValues.ANY, null, false, true),
            new ColumnSpec("note", ColumnType.STRING, true)), DriftPolicy.FAIL), "at");

    private static EventDecoder.Decoded decode(String json) {
        return DECODER.decode("k".getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aDecimalIsExactAndADoubleThatWouldRoundIsAViolationUnlessLossy() {
        var ok = decode("{\"at\": \"2024-01-01T00:00\", \"amount\": 12.5, \"score\": 0.1, \"approx\": 12345678901234567.89}");
        assertThat(ok.violation()).isNull();
        assertThat(ok.event().values()).containsEntry("amount", new BigDecimal("12.50")).containsEntry("score", 0.1)
                .containsEntry("approx", 1.2345678901234568E16);
        var bad = decode("{\"at\": \"2024-01-01T00:00\", \"amount\": 0.125, \"score\": 9007199254740993, \"note\": \"%s\"}"
                .formatted("x".repeat(4001)));
        assertThat(bad.violation().ruleId()).isEqualTo("contract_violation");
        assertThat(bad.violation().reason()).isEqualTo("the event breaks contract e.v1: "
                + "amount: 0.125 does not fit decimal(12,2): 3 digits after the point, decimal(12,2) keeps 2 (it would be rounded); "
                + "score: 9007199254740993 is not exactly a double (beyond ±2^53 (9007199254740992), where a double does not hold"
                + " every integer): declare it decimal(p,s) to keep it, or lossy: true to accept the rounding; "
                + "note: \"" + "x".repeat(116) + "... holds 4001 characters, more than the 4000 the sink keeps");
    }

    @Test
    void anIdLongerThanTheSinkKeepsIsAViolationNotATruncation() {
        byte[] value = "{\"at\": \"2024-01-01T00:00\"}".getBytes(StandardCharsets.UTF_8);
        var longest = DECODER.decode("k".repeat(200).getBytes(StandardCharsets.UTF_8), value);
        assertThat(longest.violation()).isNull();
        assertThat(longest.event().id()).isEqualTo("k".repeat(200));
        var tooLong = DECODER.decode("k".repeat(201).getBytes(StandardCharsets.UTF_8), value);
        assertThat(tooLong.event()).isNull();
        assertThat(tooLong.violation()).isEqualTo(new EventDecoder.Violation("event_id_too_long",
                "the record's key is 201 characters: the key is the event's id, and the sink keeps ids of at most 200"));
    }
}
