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
}
