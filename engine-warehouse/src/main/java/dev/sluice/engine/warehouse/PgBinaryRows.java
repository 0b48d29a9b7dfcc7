package dev.sluice.engine.warehouse;

import dev.sluice.engine.BronzeColumns;
import dev.sluice.engine.BronzeRow;
import dev.sluice.config.ColumnType;
import dev.sluice.core.SluiceException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Bronze rows in PostgreSQL's binary {@code COPY} format (PostgreSQL docs, COPY, "Binary Format"):
 * the 19-byte header, then per row a 16-bit field count and each field as a 32-bit length (−1 for
 * NULL) and its bytes as the type's {@code *recv} function reads them, then the 16-bit trailer −1.
 * Integers are big-endian; {@code date} is days and {@code timestamp}/{@code timestamptz}
 * microseconds since 2000-01-01 (UTC for {@code timestamptz}); text is UTF-8 (the driver's client
 * encoding). A {@code LocalDateTime} with nanoseconds is rounded half up to the microsecond.
 * {@code numeric} is what {@code numeric_recv} reads (PostgreSQL source, src/backend/utils/adt/numeric.c,
 * and the {@code NumericData} comment in src/include/utils/numeric.h): int16 ndigits, int16 weight,
 * uint16 sign ({@code 0x0000} positive, {@code 0x4000} negative), uint16 dscale (the digits after
 * the point shown), then ndigits base-10000 digits, most significant first; the value is
 * Σ digit[i] × 10000^(weight − i). Leading and trailing zero digits are stripped, as PostgreSQL
 * packs values; zero has no digits. A {@code BigDecimal} is sent with its own scale as dscale, so
 * a value fitted to the column's {@code decimal(p,s)} arrives exactly as {@code numeric(p,s)}
 * stores it (no rounding by the column's type modifier).
 *
 * <p>The server parses binary fields much more cheaply than CSV text: on this project's flights
 * rows (12 columns, one index) a {@code COPY} alone took 5.9 s per 3,000,000 rows in binary and
 * 9.8 s in CSV (embedded PostgreSQL 14, 2 cores; issue #10's closing note).
 *
 * <p>Not thread-safe: one instance per sink, its buffer reused across chunks.
 */
final class PgBinaryRows {

    private static final byte[] HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0};
    private static final long PG_EPOCH_SECONDS = 946_684_800L;
    private static final long PG_EPOCH_DAYS = 10_957L;
    /** PostgreSQL's range (datatype/timestamp.h): 4714-11-24 BC up to, not including, 294277-01-01; µs and days since 2000-01-01. */
    private static final long PG_TIMESTAMP_MIN = -211_813_488_000_000_000L;
    private static final long PG_TIMESTAMP_END = 9_223_371_331_200_000_000L;
    private static final long PG_DATE_MIN = -2_451_545L;
    private static final long PG_DATE_END = 2_145_031_949L;

    /** How a field is written: the PostgreSQL type the table column has. */
    enum Kind {
        INT4, INT8, FLOAT4, FLOAT8, BOOL, DATE, TIMESTAMP, TIMESTAMPTZ, TEXT, NUMERIC
    }

    private final Kind[] kinds;
    private final String[] names;
    /** The metadata every row of the step shares, encoded once. */
    private final byte[] partition;
    private final byte[] run;
    private final long ingestedAt;
    /** The last row's {@code _source} and its bytes: a file's rows share it. */
    private String lastSource = "";
    private byte[] lastSourceBytes = new byte[0];
    private byte[] buf = new byte[1 << 17];
    private int at;

    private static final int NUMERIC_POS = 0x0000;
    private static final int NUMERIC_NEG = 0x4000;

    private PgBinaryRows(Kind[] kinds, BronzeColumns columns) {
        this.kinds = kinds;
        this.names = columns.names().toArray(String[]::new);
        this.partition = columns.partition().key().getBytes(StandardCharsets.UTF_8);
        this.run = columns.run().toString().getBytes(StandardCharsets.UTF_8);
        this.ingestedAt = micros(names.length - 3, columns.ingestedAt().withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
    }

    /**
     * The encoder for {@code columns} when every column's value type has an exact binary form in
     * the table's column type; empty otherwise (a column missing from {@code tableTypes}, a type
     * changed since the table was created), in which case the caller writes text.
     *
     * @param tableTypes the table's columns: name → PostgreSQL type name ({@code pg_type.typname})
     */
    static Optional<PgBinaryRows> of(BronzeColumns columns, Map<String, String> tableTypes) {
        List<String> names = columns.names();
        int n = columns.businessColumns();
        List<Kind> kinds = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String type = tableTypes.get(names.get(i));
            Kind k = type == null ? null : i < n ? business(columns.types().get(i), type) : metadata(names.get(i), type);
            if (k == null) {
                return Optional.empty();
            }
            kinds.add(k);
        }
        return Optional.of(new PgBinaryRows(kinds.toArray(Kind[]::new), columns));
    }

    private static Kind business(ColumnType contract, String type) {
        return switch (contract) {
            case STRING -> text(type);
            case INT -> type.equals("int4") ? Kind.INT4 : type.equals("int8") ? Kind.INT8 : null;
            case LONG -> type.equals("int8") ? Kind.INT8 : null;
            case FLOAT -> type.equals("float4") ? Kind.FLOAT4 : type.equals("float8") ? Kind.FLOAT8 : null;
            case DOUBLE -> type.equals("float8") ? Kind.FLOAT8 : null;
            case BOOLEAN -> type.equals("bool") ? Kind.BOOL : null;
            case DATE -> type.equals("date") ? Kind.DATE : null;
            case TIMESTAMP -> type.equals("timestamp") ? Kind.TIMESTAMP : null;
            case DECIMAL -> type.equals("numeric") ? Kind.NUMERIC : null;
        };
    }

    private static Kind metadata(String name, String type) {
        return switch (name) {
            case "_source_pos" -> type.equals("int8") ? Kind.INT8 : null;
            case "_ingested_at" -> type.equals("timestamptz") ? Kind.TIMESTAMPTZ : null;
            default -> text(type);
        };
    }

    private static Kind text(String type) {
        return type.equals("varchar") || type.equals("text") || type.equals("bpchar") ? Kind.TEXT : null;
    }

    /** Starts a COPY's data: clears the buffer and writes the header. */
    void begin() {
        at = 0;
        put(HEADER, 0, HEADER.length);
    }

    /** Appends one row: its business values, then its ingest metadata ({@link BronzeColumns#names()} order). */
    void row(BronzeRow r) {
        Object[] v = r.values();
        int n = v.length;
        putShort(kinds.length);
        try {
            for (int i = 0; i < n; i++) {
                field(i, v[i]);
            }
        } catch (OutOfRange e) {
            // the whole COPY is cancelled: the chunk rolls back and the step fails, naming the value
            throw new SluiceException(r.source() + ", row " + (r.position() + 1) + ", " + e.getMessage()
                    + ": the partition is not loaded; correct the value in the source (H2 warehouses take it)", e);
        }
        putBytes(partition);
        putBytes(run);
        if (!r.source().equals(lastSource)) {
            lastSource = r.source();
            lastSourceBytes = lastSource.getBytes(StandardCharsets.UTF_8);
        }
        putBytes(lastSourceBytes);
        field(n + 3, r.position());
        putInt(8);
        putLong(ingestedAt);
        field(n + 5, r.rowHash());
        field(n + 6, r.parseErrors());
    }

    /** Ends a COPY's data with the trailer. */
    void end() {
        putShort(-1);
    }

    /** Bytes written since {@link #begin()} or the last {@link #drain}. */
    int size() {
        return at;
    }

    /** The buffer; its first {@link #size()} bytes are the data. */
    byte[] buffer() {
        return buf;
    }

    /** Forgets the data handed on, keeping the buffer. */
    void drain() {
        at = 0;
    }

    private void field(int i, Object value) {
        if (value == null) {
            putInt(-1);
            return;
        }
        try {
            switch (kinds[i]) {
                case INT4 -> {
                    putInt(4);
                    putInt(((Number) value).intValue());
                }
                case INT8 -> {
                    putInt(8);
                    putLong(((Number) value).longValue());
                }
                case FLOAT4 -> {
                    putInt(4);
                    putInt(Float.floatToIntBits(((Number) value).floatValue()));
                }
                case FLOAT8 -> {
                    putInt(8);
                    putLong(Double.doubleToLongBits(((Number) value).doubleValue()));
                }
                case BOOL -> {
                    putInt(1);
                    putByte((Boolean) value ? 1 : 0);
                }
                case DATE -> {
                    putInt(4);
                    putInt(days(i, (LocalDate) value));
                }
                case TIMESTAMP -> {
                    putInt(8);
                    putLong(micros(i, (LocalDateTime) value));
                }
                case TEXT -> putText(value.toString());
                case NUMERIC -> putNumeric((BigDecimal) value);
                case TIMESTAMPTZ -> throw new IllegalStateException("Bronze binary COPY: " + names[i]
                        + " is written once per row from the load's time, never as a field");
            }
        } catch (ClassCastException e) {
            // the readers give each column its contract type's Java value: this is a bug, not bad input
            throw new IllegalStateException("Bronze binary COPY: column " + names[i] + " (" + kinds[i] + ") got a "
                    + value.getClass().getSimpleName(), e);
        }
    }

    /** A {@code numeric} field (see the class comment): length, header, base-10000 digits. */
    private void putNumeric(BigDecimal value) {
        BigDecimal v = value.scale() < 0 ? value.setScale(0) : value;
        String digits = v.unscaledValue().abs().toString();
        int scale = v.scale();
        int integerDigits = digits.length() - scale; // the digit of 10^k is digits[integerDigits - 1 - k]
        int high = Math.floorDiv(integerDigits - 1, 4);
        int low = Math.floorDiv(-scale, 4);
        int[] groups = new int[high - low + 1];
        for (int w = low; w <= high; w++) {
            int g = 0;
            for (int j = 3; j >= 0; j--) {
                int at = integerDigits - 1 - (4 * w + j);
                g = g * 10 + (at >= 0 && at < digits.length() ? digits.charAt(at) - '0' : 0);
            }
            groups[high - w] = g;
        }
        int first = 0;
        int last = groups.length - 1;
        while (first <= last && groups[first] == 0) {
            first++;
        }
        while (last >= first && groups[last] == 0) {
            last--;
        }
        int n = last - first + 1;
        putInt(8 + 2 * n);
        putShort(n);
        putShort(n == 0 ? 0 : high - first);
        putShort(n == 0 || v.signum() >= 0 ? NUMERIC_POS : NUMERIC_NEG);
        putShort(scale);
        for (int i = first; i <= last; i++) {
            putShort(groups[i]);
        }
    }

    /** A text field: ASCII (a row hash, a code) copied as is, anything else encoded as UTF-8. */
    private void putText(String text) {
        int n = text.length();
        ensure(4 + n);
        int start = at;
        at += 4;
        for (int k = 0; k < n; k++) {
            char ch = text.charAt(k);
            if (ch >= 0x80) {
                at = start;
                putBytes(text.getBytes(StandardCharsets.UTF_8));
                return;
            }
            buf[at++] = (byte) ch;
        }
        int end = at;
        at = start;
        putInt(n);
        at = end;
    }

    private void putBytes(byte[] b) {
        putInt(b.length);
        put(b, 0, b.length);
    }

    private int days(int column, LocalDate d) {
        long days = d.toEpochDay() - PG_EPOCH_DAYS;
        if (days < PG_DATE_MIN || days >= PG_DATE_END) {
            throw outOfRange(column, d, "date", "4714-11-24 BC to 5874897-12-31");
        }
        return (int) days;
    }

    private long micros(int column, LocalDateTime t) {
        try {
            long us = Math.addExact(Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC) - PG_EPOCH_SECONDS, 1_000_000L),
                    (t.getNano() + 500) / 1_000);
            if (us >= PG_TIMESTAMP_MIN && us < PG_TIMESTAMP_END) {
                return us;
            }
        } catch (ArithmeticException e) {
            // beyond a long of microseconds: out of range too
        }
        throw outOfRange(column, t, kinds[column] == Kind.TIMESTAMPTZ ? "timestamptz" : "timestamp", "4714-11-24 BC to 294276-12-31");
    }

    private OutOfRange outOfRange(int column, Object value, String type, String range) {
        return new OutOfRange("column " + names[column] + ": " + value + " is outside PostgreSQL's " + type + " range (" + range + ")");
    }

    /** A value PostgreSQL cannot store in its column's type; {@link #row} names the file and row. */
    static final class OutOfRange extends RuntimeException {
        OutOfRange(String message) {
            super(message);
        }
    }

    private void ensure(int n) {
        if (at + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, at + n));
        }
    }

    private void putByte(int b) {
        ensure(1);
        buf[at++] = (byte) b;
    }

    private void putShort(int s) {
        ensure(2);
        buf[at++] = (byte) (s >>> 8);
        buf[at++] = (byte) s;
    }

    private void putInt(int x) {
        ensure(4);
        buf[at++] = (byte) (x >>> 24);
        buf[at++] = (byte) (x >>> 16);
        buf[at++] = (byte) (x >>> 8);
        buf[at++] = (byte) x;
    }

    private void putLong(long x) {
        putInt((int) (x >>> 32));
        putInt((int) x);
    }

    private void put(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, at, len);
        at += len;
    }
}
