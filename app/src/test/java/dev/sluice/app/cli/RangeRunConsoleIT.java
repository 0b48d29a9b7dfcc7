package dev.sluice.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import dev.sluice.app.console.TerminalAppender;
import dev.sluice.app.console.TerminalLines;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.warehouse.Warehouse;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A range run's console, captured: the real log's warnings (through the sluice console appender)
 * print on lines of their own above the progress bar, never glued onto it; the bar's last drawing
 * has the rate per minute; the summary counts the warnings and names the log file. Nothing here
 * depends on when the bar's thread draws.
 */
class RangeRunConsoleIT {

    @Test
    void warningsPrintAboveTheBarAndTheSummaryCountsThem() {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        TerminalLines terminal = new TerminalLines(new PrintStream(console, true, StandardCharsets.UTF_8));
        LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(logging);
        encoder.setPattern("%-5level %logger{30} - %msg%n%nopex");
        encoder.start();
        ThresholdFilter warn = new ThresholdFilter();
        warn.setLevel("WARN");
        warn.start();
        TerminalAppender appender = new TerminalAppender();
        appender.setContext(logging);
        appender.setName("captured-console");
        appender.setEncoder(encoder);
        appender.setLines(terminal);
        appender.addFilter(warn);
        appender.start();
        Logger root = logging.getLogger(Logger.ROOT_LOGGER_NAME);
        root.addAppender(appender);
        StringWriter out = new StringWriter();
        PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        int code;
        long summaryWarnings;
        long checksThatWarned;
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            code = RunCommand.runRange(runner, spec, LocalDate.parse("2001-06-30"), LocalDate.parse("2001-07-01"), RunOptions.plain(),
                    new PrintWriter(out, true), terminal, TestHome.withSampleData());
            summaryWarnings = w.dsl().fetchCount(w.dsl().selectFrom("sluice.quality_results").where("status = 'WARNED'"));
            checksThatWarned = w.dsl().resultQuery("SELECT COUNT(*) FROM (SELECT DISTINCT boundary, dataset, check_id"
                    + " FROM sluice.quality_results WHERE status = 'WARNED') c").fetchOne(0, Long.class);
        } finally {
            root.detachAppender(appender);
            appender.stop();
        }
        assertThat(code).as(out.toString()).isZero();
        String text = console.toString(StandardCharsets.UTF_8);
        // what a terminal shows of each line: the text after its last carriage return
        List<String> shown = Arrays.stream(text.split("\n")).map(l -> l.substring(l.lastIndexOf('\r') + 1)).toList();
        List<String> warnings = shown.stream().filter(l -> l.contains("WARN")).toList();
        // 2001-06-30: exact duplicates; 2001-07-01: an incomplete day. The first warning of each check prints
        // in full; a check that warns again is summed up at the end (the quickstart printed 124 lines of a few checks)
        assertThat(warnings).hasSize((int) checksThatWarned).hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(l -> assertThat(l).startsWith("WARN  d.s.batch.job.PipelineRunner - quality ")
                        .endsWith(" (more of this check are summed up at the end)"));
        assertThat(text).as("no warning glued onto the bar's line").doesNotContainPattern("(?s)\\] [0-9]/2 [^\\r\\n]*WARN");
        // the bar redraws from its own thread every 500 ms, so only its last drawing (by close) is certain;
        // the "?" before the second partition is RecentRateTest's
        assertThat(shown.get(shown.size() - 1).stripTrailing()).matches("flights 100% \\[=+\\] 2/2 \\(\\d+:\\d\\d:\\d\\d / 0:00:00\\)"
                + " \\d+\\.\\d/min 2001-07-01 COMPLETED");
        String summary = out.toString();
        assertThat(summary).contains("2 partitions in ").contains(summaryWarnings + " warning(s)")
                .contains("each in full, with its run and partition, in " + TestHome.withSampleData().resolve("logs/sluice.log") + "\n");
        // one line per check that warned more than once: its count, its partitions and its first line
        long repeatedLines = summary.lines().filter(l -> l.matches("  \\d+ × quality .*; the first: .*")).count();
        assertThat(repeatedLines).isLessThanOrEqualTo(checksThatWarned);
        assertThat(summary.lines().filter(l -> l.matches("  \\d+ × .*")).mapToLong(l -> Long.parseLong(l.trim().split(" ")[0])).sum()
                + (checksThatWarned - repeatedLines)).as("every warning counted once").isEqualTo(summaryWarnings);
    }
}
