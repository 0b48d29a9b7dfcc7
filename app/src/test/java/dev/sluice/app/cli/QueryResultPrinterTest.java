package dev.sluice.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryResultPrinterTest {

    private static final String FORTY = "abcdefghij".repeat(4);

    /** 60 short rows, then a wide number and a 40-character text: jOOQ sized columns from the first 50 rows and cut these. */
    private static List<List<Object>> rows() {
        List<List<Object>> rows = new ArrayList<>();
        for (long i = 1; i <= 60; i++) {
            rows.add(Arrays.asList(i, "a", null));
        }
        rows.add(Arrays.asList(-17666666667L, FORTY, new BigDecimal("-0.47368421052631578947")));
        return rows;
    }

    private static String print(QueryResultPrinter.Format format, List<List<Object>> rows, int maxRows) {
        StringWriter out = new StringWriter();
        QueryResultPrinter.print(new PrintWriter(out), format, List.of("v", "s", "avg"), rows, maxRows, rows.size());
        return out.toString();
    }

    @Test
    void tablePrintsEveryValueWholeWhereverItsRowIs() {
        String table = print(QueryResultPrinter.Format.table, rows(), 100);
        assertThat(table).doesNotContain("...")
                .contains("|-17666666667|" + FORTY + "|-0.47368421052631578947|")
                .contains("|           1|a" + " ".repeat(39) + "|" + " ".repeat(17) + "{null}|")
                .endsWith("\n61 row(s)\n");
    }

    @Test
    void tableSaysHowManyRowsMaxRowsLeftOut() {
        String table = print(QueryResultPrinter.Format.table, rows(), 10);
        assertThat(table.lines().filter(l -> l.startsWith("|")).count()).isEqualTo(11); // header + 10
        assertThat(table).contains("51 more row(s) not shown (--max-rows 10)").endsWith("61 row(s)\n")
                .doesNotContain("17666666667");
    }

    @Test
    void csvQuotesWhatNeedsItAndLeavesNullEmpty() {
        List<List<Object>> rows = List.of(Arrays.asList(1L, "a,\"b\"", null), Arrays.asList(-17666666667L, FORTY, LocalDate.of(2001, 2, 22)));
        assertThat(print(QueryResultPrinter.Format.csv, rows, 50))
                .isEqualTo("v,s,avg\r\n1,\"a,\"\"b\"\"\",\r\n-17666666667," + FORTY + ",2001-02-22\r\n");
    }

    @Test
    void jsonGivesNumbersAsNumbersAndNullAsNull() {
        List<List<Object>> rows = List.of(Arrays.asList(-17666666667L, FORTY, new BigDecimal("-0.47368421052631578947")),
                Arrays.asList(2L, "x", null));
        assertThat(print(QueryResultPrinter.Format.json, rows, 50)).isEqualTo(
                "[{\"v\":-17666666667,\"s\":\"" + FORTY + "\",\"avg\":-0.47368421052631578947},{\"v\":2,\"s\":\"x\",\"avg\":null}]\n");
    }

    @Test
    void everyValueIsPrintedWithEveryDigitAndNoObjectIdentity() {
        // a tester saw TIME(6) 10:11:12.123456 printed 10:11:12, X'00ff' as [B@2fd1ad8a, ARRAY[1,2] as [Ljava.lang.Integer;@…
        assertThat(QueryResultPrinter.plain(java.time.LocalTime.parse("10:11:12.123456"))).isEqualTo("10:11:12.123456");
        assertThat(QueryResultPrinter.plain(java.time.LocalDateTime.parse("2001-07-01T00:00"))).isEqualTo("2001-07-01T00:00:00");
        assertThat(QueryResultPrinter.plain(java.time.OffsetDateTime.parse("2001-07-01T00:01+02:00"))).isEqualTo("2001-07-01T00:01:00+02:00");
        assertThat(QueryResultPrinter.plain(java.sql.Timestamp.valueOf("2001-07-01 00:00:00.000000123"))).isEqualTo("2001-07-01T00:00:00.000000123");
        assertThat(QueryResultPrinter.plain(new byte[] {0, (byte) 0xff})).isEqualTo("\\x00ff");
        assertThat(QueryResultPrinter.plain(Arrays.asList(1, null, 2))).isEqualTo("[1, NULL, 2]");
        assertThat(QueryResultPrinter.plain(new BigDecimal("1E-7"))).isEqualTo("0.0000001");
        assertThat(QueryResultPrinter.plain(new BigDecimal("1E+1"))).isEqualTo("10");
        List<List<Object>> rows = List.of(Arrays.asList(new BigDecimal("1E-7"), List.of(1, 2), "a\nb"));
        StringWriter json = new StringWriter();
        QueryResultPrinter.print(new PrintWriter(json), QueryResultPrinter.Format.json, List.of("d", "arr", "t"), rows, 10, 1);
        assertThat(json.toString()).isEqualTo("[{\"d\":0.0000001,\"arr\":[1,2],\"t\":\"a\\nb\"}]\n");
        StringWriter table = new StringWriter();
        QueryResultPrinter.print(new PrintWriter(table), QueryResultPrinter.Format.table, List.of("d", "arr", "t"), rows, 10, 1);
        assertThat(table.toString()).contains("|0.0000001|[1, 2]|a\\nb|");
    }
}
