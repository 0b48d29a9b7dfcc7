package dev.sluice.app.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Prints a query's result for {@code sluice sql}, every value whole, in one of three shapes:
 * <ul>
 *   <li>{@code table}: psql's and DuckDB's boxed table; each column as wide as its widest printed value
 *       or its name (all printed rows measured: jOOQ's text format sizes columns from the first 50 rows
 *       and cuts later, wider values with {@code ...}); numbers aligned right, NULL printed {@code {null}};
 *       then {@code N row(s)}, and a line saying how many rows {@code --max-rows} left out;</li>
 *   <li>{@code csv}: RFC 4180 with a header line, NULL as an empty field (commons-csv);</li>
 *   <li>{@code json}: one array of objects, a column name to its value, numbers as JSON numbers, NULL as
 *       {@code null}, other values as their text (dates and times in ISO-8601) (Jackson).</li>
 * </ul>
 * Values are printed as they are, never rounded or cut: a {@link BigDecimal} without exponent
 * ({@link BigDecimal#toPlainString()}); times, dates and timestamps in ISO-8601 with every digit
 * (seconds always); binary values as hex ({@code \\x00ff}, as psql); an array as its elements
 * ({@code [1, 2]}, a JSON array in JSON); anything else as {@link String#valueOf(Object)}. In a table
 * a line break or tab inside a value is shown as {@code \\n}, {@code \\r}, {@code \\t} so that
 * the table keeps its lines. Stateless; thread-safe.
 */
final class QueryResultPrinter {

    /** The shapes of {@code sluice sql --format}. */
    enum Format { table, csv, json }

    private static final ObjectMapper JSON = new ObjectMapper();

    private QueryResultPrinter() {
    }

    /**
     * Writes {@code rows} (each as long as {@code columns}, nulls allowed) in {@code format}: at most
     * {@code maxRows} of them; {@code total} is the number of rows the query returned (at least
     * {@code rows.size()} when the engine fetched only the first ones).
     */
    static void print(PrintWriter out, Format format, List<String> columns, List<List<Object>> rows, int maxRows, long total) {
        List<List<Object>> shown = rows.size() > maxRows ? rows.subList(0, maxRows) : rows;
        switch (format) {
            case table -> table(out, columns, shown, total);
            case csv -> csv(out, columns, shown);
            case json -> json(out, columns, shown);
        }
        out.flush();
    }

    private static void table(PrintWriter out, List<String> columns, List<List<Object>> rows, long total) {
        int[] width = new int[columns.size()];
        boolean[] numeric = new boolean[columns.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = Math.max(4, columns.get(i).length());
        }
        for (List<Object> row : rows) {
            for (int i = 0; i < width.length; i++) {
                width[i] = Math.max(width[i], text(row.get(i)).length());
                numeric[i] |= row.get(i) instanceof Number;
            }
        }
        StringBuilder rule = new StringBuilder("+");
        for (int w : width) {
            rule.append("-".repeat(w)).append('+');
        }
        out.println(rule);
        out.println(line(columns.stream().map(c -> (Object) c).toList(), width, new boolean[width.length]));
        out.println(rule);
        for (List<Object> row : rows) {
            out.println(line(row, width, numeric));
        }
        out.println(rule);
        if (total > rows.size()) {
            out.println((total - rows.size()) + " more row(s) not shown (--max-rows " + rows.size() + ")");
        }
        out.println();
        out.println(total + " row(s)");
    }

    private static String line(List<Object> values, int[] width, boolean[] right) {
        StringBuilder b = new StringBuilder("|");
        for (int i = 0; i < width.length; i++) {
            String t = text(values.get(i));
            String pad = " ".repeat(width[i] - t.length());
            b.append(right[i] ? pad + t : t + pad).append('|');
        }
        return b.toString();
    }

    private static String text(Object v) {
        return v == null ? "{null}" : plain(v).replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
    }

    /** A value's text, every digit kept (see the class comment). */
    static String plain(Object v) {
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        } else if (v instanceof byte[] b) {
            return "\\x" + HexFormat.of().formatHex(b);
        } else if (v instanceof java.sql.Timestamp t) {
            return plain(t.toLocalDateTime());
        } else if (v instanceof java.sql.Date d) {
            return d.toLocalDate().toString();
        } else if (v instanceof LocalDateTime t) {
            return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t);
        } else if (v instanceof OffsetDateTime t) {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(t);
        } else if (v instanceof LocalTime t) {
            return DateTimeFormatter.ISO_LOCAL_TIME.format(t);
        } else if (v instanceof OffsetTime t) {
            return DateTimeFormatter.ISO_OFFSET_TIME.format(t);
        } else if (v instanceof List<?> l) {
            return l.stream().map(e -> e == null ? "NULL" : plain(e)).collect(Collectors.joining(", ", "[", "]"));
        } else if (v instanceof Object[] a) {
            return plain(Arrays.asList(a));
        }
        return String.valueOf(v);
    }

    private static void csv(PrintWriter out, List<String> columns, List<List<Object>> rows) {
        StringWriter buffer = new StringWriter();
        try (CSVPrinter csv = new CSVPrinter(buffer, CSVFormat.RFC4180.builder().setHeader(columns.toArray(String[]::new)).get())) {
            for (List<Object> row : rows) {
                csv.printRecord(row.stream().map(v -> v == null ? null : plain(v)).toList());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.print(buffer);
    }

    private static void json(PrintWriter out, List<String> columns, List<List<Object>> rows) {
        StringWriter buffer = new StringWriter();
        try (JsonGenerator g = JSON.getFactory().createGenerator(buffer)) {
            g.writeStartArray();
            for (List<Object> row : rows) {
                g.writeStartObject();
                for (int i = 0; i < columns.size(); i++) {
                    g.writeFieldName(columns.get(i));
                    write(g, row.get(i));
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.println(buffer);
    }

    private static void write(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof BigDecimal d) {
            g.writeNumber(d.toPlainString());
        } else if (v instanceof BigInteger n) {
            g.writeNumber(n);
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Double d && Double.isFinite(d)) {
            g.writeNumber(d);
        } else if (v instanceof Float f && Float.isFinite(f)) {
            g.writeNumber(f);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof List<?> l) {
            g.writeStartArray();
            for (Object e : l) {
                write(g, e);
            }
            g.writeEndArray();
        } else if (v instanceof Object[] a) {
            write(g, Arrays.asList(a));
        } else {
            g.writeString(plain(v));
        }
    }
}
