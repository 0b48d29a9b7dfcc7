package dev.sluice.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.CheckFamily;
import dev.sluice.config.Expectation;
import dev.sluice.config.Severity;
import dev.sluice.config.SpecValidationException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conformance harness's judging (issue 51 item 8): a case can only pass when what GE asserts was
 * compared and agreed; what cannot be compared is reported, never passed over.
 */
class GeJudgeTest {

    private static JsonNode json(String text) throws Exception {
        return GeCase.JSON.readTree(text);
    }

    private static CheckResult result(CheckStatus status, Object observed) {
        return new CheckResult("ge_case", "e", CheckFamily.VALIDITY, Severity.ERROR, status, null, observed, "", "measured", 3, 0,
                List.of(), List.of());
    }

    @Test
    void aMostlyThatIsNoNumberIsRefusedBySluicesSpecReaderNotReadAsZero() throws Exception {
        JsonNode in = json("{\"column\": \"x\", \"value_set\": [1], \"mostly\": \"One\"}");
        assertThatThrownBy(() -> GeCase.spec(Expectation.EXPECT_COLUMN_VALUES_TO_BE_IN_SET, in, Map.of("x", "BIGINT")))
                .isInstanceOf(SpecValidationException.class)
                .hasMessageContaining("checks[0].mostly = One: a fraction in (0, 1], e.g. 0.99");
        assertThat(GeCase.spec(Expectation.EXPECT_COLUMN_VALUES_TO_BE_IN_SET, json("{\"column\": \"x\", \"value_set\": [1], \"mostly\": 0.5}"),
                Map.of("x", "BIGINT")).mostly()).isEqualTo(0.5);
    }

    @Test
    void aTracebackIsARefusalForTheSameReasonNotAnyException() throws Exception {
        JsonNode test = json("{\"in\": {}, \"out\": {\"traceback_substring\": \"min_value cannot be greater than max_value\"}}");
        Expectation e = Expectation.EXPECT_COLUMN_VALUES_TO_BE_BETWEEN;
        assertThat(GeJudge.judge(test, e, GeJudge.Run.threw(new InvalidCheckException("c: min_value cannot be greater than max_value"))).kind())
                .isEqualTo(GeVerdict.Kind.PASSED);
        GeVerdict npe = GeJudge.judge(test, e, GeJudge.Run.threw(new NullPointerException()));
        assertThat(npe.kind()).isEqualTo(GeVerdict.Kind.FAILED);
        assertThat(npe.detail()).contains("NullPointerException without a message");
        assertThat(GeJudge.judge(test, e, GeJudge.Run.threw(new InvalidCheckException("c: x is not a column"))).kind())
                .isEqualTo(GeVerdict.Kind.FAILED);
        assertThat(GeJudge.judge(test, e, GeJudge.Run.of(result(CheckStatus.PASSED, null))).detail())
                .startsWith("GE raises (min_value cannot be greater than max_value); Sluice answered PASSED");
    }

    @Test
    void aGateExceptionWithoutAMessageIsReportedByItsClass() throws Exception {
        GeVerdict v = GeJudge.judge(json("{\"in\": {}, \"out\": {\"success\": true}}"), Expectation.EXPECT_COLUMN_VALUES_TO_NOT_BE_IN_SET,
                GeJudge.Run.threw(new NullPointerException()));
        assertThat(v.kind()).isEqualTo(GeVerdict.Kind.FAILED);
        assertThat(List.of(v.category(), v.detail())).containsExactly(GeVerdict.CRASHED,
                "the gate threw NullPointerException without a message where GE answers {\"success\":true}");
    }

    @Test
    void observedValuesAreComparedWhateverTheirShapeAlsoNested() throws Exception {
        Expectation e = Expectation.EXPECT_COLUMN_MOST_COMMON_VALUE_TO_BE_IN_SET;
        JsonNode top = json("{\"in\": {}, \"out\": {\"success\": false, \"observed_value\": [1, 2]}}");
        assertThat(GeJudge.judge(top, e, GeJudge.Run.of(result(CheckStatus.FAILED, List.of(1L, 2L)))).kind()).isEqualTo(GeVerdict.Kind.PASSED);
        GeVerdict list = GeJudge.judge(top, e, GeJudge.Run.of(result(CheckStatus.FAILED, List.of(1L, 3L))));
        assertThat(list.kind()).isEqualTo(GeVerdict.Kind.FAILED);
        assertThat(list.detail()).startsWith("observed_value: GE [1,2], Sluice [1, 3] (element 1: not within GE's tolerance)");
        JsonNode nested = json("{\"in\": {}, \"out\": {\"success\": true, \"result\": {\"observed_value\": {\"quantiles\": [0.5], \"values\": [7]}}}}");
        assertThat(GeJudge.judge(nested, e, GeJudge.Run.of(result(CheckStatus.PASSED, Map.of("quantiles", List.of(0.5), "values", List.of(9))))).detail())
                .startsWith("result.observed_value: GE {\"quantiles\":[0.5],\"values\":[7]}");
        // within np.allclose's absolute 5e-2
        JsonNode number = json("{\"in\": {}, \"out\": {\"observed_value\": 2.0}}");
        assertThat(GeJudge.judge(number, e, GeJudge.Run.of(result(CheckStatus.PASSED, 2.04))).kind()).isEqualTo(GeVerdict.Kind.PASSED);
        assertThat(GeJudge.judge(number, e, GeJudge.Run.of(result(CheckStatus.PASSED, 2.06))).kind()).isEqualTo(GeVerdict.Kind.FAILED);
    }

    @Test
    void aKeyWithoutACounterpartIsReportedNotPassed() throws Exception {
        JsonNode test = json("{\"in\": {}, \"out\": {\"success\": true, \"value_counts\": [{\"value\": 1, \"count\": 1}]}}");
        GeVerdict v = GeJudge.judge(test, Expectation.EXPECT_COLUMN_DISTINCT_VALUES_TO_BE_IN_SET,
                GeJudge.Run.of(result(CheckStatus.PASSED, List.of(1L))));
        assertThat(List.of(v.kind(), v.category())).containsExactly(GeVerdict.Kind.SKIPPED,
                "not judged whole: GE result keys without a Sluice counterpart");
        assertThat(v.detail()).isEqualTo("value_counts (Sluice's result carries the distinct values, not their counts) (the 1 key(s) compared agree)");
    }
}
