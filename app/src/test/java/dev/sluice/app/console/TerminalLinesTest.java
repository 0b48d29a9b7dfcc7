package dev.sluice.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TerminalLinesTest {

    @Test
    void aLinePrintsAboveTheBarWhichIsDrawnAgainBelowIt() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TerminalLines lines = new TerminalLines(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        lines.println("before");
        lines.showBar("bar 1/3");
        lines.showBar("bar 2/3 long");
        lines.println("WARN something");
        lines.warned();
        lines.showBar("bar 3/3");
        lines.endBar();
        lines.println("after");
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("before\n"
                + "\rbar 1/3"
                + "\rbar 2/3 long"
                + "\r            \rWARN something\nbar 2/3 long"
                + "\rbar 3/3     "
                + "\n"
                + "after\n");
        assertThat(lines.warnings()).isOne();
    }

    @Test
    void aCheckThatWarnsAgainIsSummedUpWithItsCountPartitionsAndFirstLine() {
        TerminalLines lines = new TerminalLines(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        lines.warned(); // another warning, counted only
        String dup = "quality transform silver.flights one_row_per_key";
        assertThat(lines.warnedOf(dup, "2001-01-03", "WARN first duplicates")).as("the first of its kind prints").isTrue();
        assertThat(lines.warnedOf(dup, "2001-01-01", "WARN more duplicates")).isFalse();
        assertThat(lines.warnedOf(dup, "2001-06-30", "WARN more duplicates")).isFalse();
        assertThat(lines.warnedOf("quality sink gold.x row_count", "2001-07-01", "WARN short day")).isTrue();
        assertThat(lines.warnings()).isEqualTo(5);
        assertThat(lines.repeatedWarnings()).containsExactly(
                "3 × quality transform silver.flights one_row_per_key, in 3 partition(s) 2001-01-01 … 2001-06-30; the first: WARN first duplicates");
        lines.forgetKinds();
        assertThat(lines.repeatedWarnings()).isEmpty();
        assertThat(lines.warnedOf(dup, "2001-01-03", "WARN again")).as("a new command's first prints again").isTrue();
    }
}
