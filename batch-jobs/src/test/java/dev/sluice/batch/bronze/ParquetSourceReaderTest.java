package dev.sluice.batch.bronze;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.DecimalSpec;
import dev.sluice.formats.LocalParquetFile;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Parquet reader's contract checks on values the file's own types allow. */
class ParquetSourceReaderTest {

    @TempDir
    Path dir;

    @Test
    void aStringWithANulCharacterIsAFieldErrorAndTheRowIsKept() throws Exception {
        // PostgreSQL cannot store NUL in text: the COPY failed the whole partition, naming no file or row
        MessageType type = MessageTypeParser.parseMessageType("message m { required int32 id; optional binary s (STRING); }");
        Path file = dir.resolve("n.parquet");
        SimpleGroupFactory f = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalParquetFile(file)).withType(type).build()) {
            w.write(f.newGroup().append("id", 1).append("s", "fine"));
            w.write(f.newGroup().append("id", 2).append("s", "a\0b"));
        }
        List<ColumnSpec> columns = List.of(new ColumnSpec("id", ColumnType.INT, false), new ColumnSpec("s", ColumnType.STRING, true));
        try (ParquetSourceReader r = new ParquetSourceReader(file, columns, "landing/n.parquet")) {
            SourceRow first = r.next();
            assertThat(first.values()).containsExactly(1, "fine");
            assertThat(first.errors()).isEmpty();
            SourceRow second = r.next();
            assertThat(second.position()).isEqualTo(1);
            assertThat(second.values()).containsExactly(2, null);
            assertThat(second.errors()).hasSize(1);
            assertThat(second.errors().get(0).column()).isEqualTo("s");
            assertThat(second.errors().get(0).reason()).contains("NUL");
            assertThat(r.next()).isNull();
        }
    }

    @Test
    void aNanosecondTimestampIsAFieldErrorNeverCutToTheMicrosecond() throws Exception {
        // it loaded with exit 0 as 00:01:00: H2, PostgreSQL and Iceberg timestamps hold microseconds
        MessageType type = MessageTypeParser.parseMessageType(
                "message m { required int32 id; optional int64 t (TIMESTAMP(NANOS,false)); }");
        Path file = dir.resolve("t.parquet");
        SimpleGroupFactory f = new SimpleGroupFactory(type);
        long minute = 60_000_000_000L;
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalParquetFile(file)).withType(type).build()) {
            w.write(f.newGroup().append("id", 1).append("t", minute + 123_000L)); // 00:01:00.000123: whole microseconds
            w.write(f.newGroup().append("id", 2).append("t", minute + 123L));     // 00:01:00.000000123
        }
        List<ColumnSpec> columns = List.of(new ColumnSpec("id", ColumnType.INT, false), new ColumnSpec("t", ColumnType.TIMESTAMP, true));
        try (ParquetSourceReader r = new ParquetSourceReader(file, columns, "landing/t.parquet")) {
            SourceRow first = r.next();
            assertThat(first.values()).containsExactly(1, java.time.LocalDateTime.parse("1970-01-01T00:01:00.000123"));
            assertThat(first.errors()).isEmpty();
            SourceRow second = r.next();
            assertThat(second.values()).containsExactly(2, null);
            assertThat(second.errors()).singleElement().satisfies(e -> {
                assertThat(e.column()).isEqualTo("t");
                assertThat(e.value()).isEqualTo("1970-01-01T00:01:00.000000123");
                assertThat(e.reason()).isEqualTo("1970-01-01T00:01:00.000000123 has nanoseconds (123 ns past the microsecond);"
                        + " a timestamp column holds microseconds, so it would be cut: refused, not cut");
            });
            assertThat(r.next()).isNull();
        }
    }

    /** A two's-complement big-endian array of {@code n} bytes (sign-extended), as FIXED_LEN_BYTE_ARRAY DECIMAL stores it. */
    private static Binary fixed(BigInteger unscaled, int n) {
        byte[] raw = unscaled.toByteArray();
        byte[] out = new byte[n];
        java.util.Arrays.fill(out, unscaled.signum() < 0 ? (byte) 0xFF : 0);
        System.arraycopy(raw, 0, out, n - raw.length, raw.length);
        return Binary.fromConstantByteArray(out);
    }

    @Test
    void aDecimalInEachPhysicalEncodingIsReadExactlyAndOneThatDoesNotFitIsAFieldError() throws Exception {
        // Parquet LogicalTypes.md "DECIMAL": INT32 (precision <= 9), INT64 (<= 18), FIXED_LEN_BYTE_ARRAY, BINARY
        MessageType type = MessageTypeParser.parseMessageType("""
                message m {
                  required int32 id;
                  optional int32 d32 (DECIMAL(9,2));
                  optional int64 d64 (DECIMAL(18,4));
                  optional fixed_len_byte_array(16) dfix (DECIMAL(38,10));
                  optional binary dbin (DECIMAL(40,5));
                  optional int64 plain;
                }""");
        Path file = dir.resolve("d.parquet");
        SimpleGroupFactory f = new SimpleGroupFactory(type);
        BigInteger big = new BigInteger("-1234567890123456789012345678901234567");
        BigInteger nines = new BigInteger("9".repeat(37));
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalParquetFile(file)).withType(type).build()) {
            w.write(f.newGroup().append("id", 1).append("d32", 12345).append("d64", 1234500L)
                    .append("dfix", fixed(big, 16)).append("dbin", Binary.fromConstantByteArray(nines.toByteArray()))
                    .append("plain", 42L));
            w.write(f.newGroup().append("id", 2).append("d32", -1).append("d64", 1234567L)
                    .append("dfix", fixed(BigInteger.ZERO, 16)).append("dbin", Binary.fromConstantByteArray(BigInteger.TEN.pow(38).toByteArray()))
                    .append("plain", Long.MAX_VALUE));
            w.write(f.newGroup().append("id", 3));
        }
        List<ColumnSpec> columns = List.of(new ColumnSpec("id", ColumnType.INT, false),
                ColumnSpec.decimal("d32", new DecimalSpec(9, 2), true), ColumnSpec.decimal("d64", new DecimalSpec(12, 2), true),
                ColumnSpec.decimal("dfix", new DecimalSpec(38, 10), true), ColumnSpec.decimal("dbin", new DecimalSpec(38, 5), true),
                ColumnSpec.decimal("plain", new DecimalSpec(18, 0), true));
        try (ParquetSourceReader r = new ParquetSourceReader(file, columns, "landing/d.parquet")) {
            SourceRow first = r.next();
            assertThat(first.errors()).isEmpty();
            assertThat(first.values()).containsExactly(1, new BigDecimal("123.45"), new BigDecimal("123.45"),
                    new BigDecimal("-123456789012345678901234567.8901234567"), new BigDecimal("9".repeat(32) + ".99999"),
                    new BigDecimal("42"));
            SourceRow second = r.next();
            assertThat(second.values()).containsExactly(2, new BigDecimal("-0.01"), null, new BigDecimal("0E-10"), null, null);
            assertThat(second.errors()).containsExactly(
                    new FieldError("d64", "123.4567", "123.4567 does not fit decimal(12,2): 4 digits after the point,"
                            + " decimal(12,2) keeps 2 (it would be rounded)"),
                    new FieldError("dbin", "1" + "0".repeat(33) + ".00000", "1" + "0".repeat(33) + ".00000 does not fit"
                            + " decimal(38,5): 34 digits before the point, decimal(38,5) holds 33"),
                    new FieldError("plain", "9223372036854775807", "9223372036854775807 does not fit decimal(18,0):"
                            + " 19 digits before the point, decimal(18,0) holds 18"));
            assertThat(r.next().values()).containsExactly(3, null, null, null, null, null);
            assertThat(r.next()).isNull();
        }
    }
}
