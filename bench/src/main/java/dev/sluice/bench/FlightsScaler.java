package dev.sluice.bench;

import dev.sluice.formats.LocalParquetFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Makes the landed flights N× larger for the growth measure (#25): each day's
 * {@code landing/flights/dt=D/flights.parquet} is written again with every row repeated {@code n}
 * times, copy k (0 … n−1) with its {@code date} timestamp shifted by k milliseconds (so the copies
 * of a row are distinct rows, while the copies of an exact duplicate stay duplicates of each
 * other). Silver's dedupe and the marts stay verifiable: row and flight counts ×n, sums ×n,
 * averages and maxima equal. The airports, earthquakes and la_riots files are linked, not copied.
 * Bench code, not shipped. Stateless.
 */
final class FlightsScaler {

    /** What was written: days and rows. */
    record Scaled(int days, long rows) {
    }

    private FlightsScaler() {
    }

    /**
     * Writes {@code target/landing} from {@code home/landing}: the flights of {@code from} … {@code to}
     * scaled by {@code n}, the other sources linked. A day already scaled by n (its file present with n times the rows) is kept; a flat schema only (a repeated or group column is refused, naming the file and column).
     */
    static Scaled scale(Path home, Path target, int n, LocalDate from, LocalDate to) throws IOException {
        if (n < 1) {
            throw new IllegalArgumentException("the scale must be at least 1, was " + n);
        }
        Path landing = Files.createDirectories(target.resolve("landing"));
        try (var sources = Files.list(home.resolve("landing"))) {
            for (Path s : sources.filter(p -> !p.getFileName().toString().equals("flights")).toList()) {
                Path link = landing.resolve(s.getFileName());
                if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.createSymbolicLink(link, s.toAbsolutePath());
                }
            }
        }
        int days = 0;
        long rows = 0;
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            Path in = home.resolve("landing/flights/dt=" + d + "/flights.parquet");
            if (!Files.exists(in)) {
                continue;
            }
            Path out = landing.resolve("flights/dt=" + d + "/flights.parquet");
            days++;
            // a day scaled before is kept only when it holds n times the day's rows (a file of another scale is redone)
            rows += Files.exists(out) && countRows(out) == n * countRows(in) ? countRows(out) : scaleFile(in, out, n);
        }
        return new Scaled(days, rows);
    }

    /** The landed flights of {@code from} … {@code to} as they are: days and rows (the 1× size). */
    static Scaled count(Path home, LocalDate from, LocalDate to) throws IOException {
        int days = 0;
        long rows = 0;
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            Path in = home.resolve("landing/flights/dt=" + d + "/flights.parquet");
            if (Files.exists(in)) {
                days++;
                rows += countRows(in);
            }
        }
        return new Scaled(days, rows);
    }

    private static long scaleFile(Path in, Path out, int n) throws IOException {
        MessageType schema;
        try (ParquetFileReader f = ParquetFileReader.open(new LocalParquetFile(in))) {
            schema = f.getFileMetaData().getSchema();
        }
        if (!schema.containsField("date")
                || !(schema.getType("date").getLogicalTypeAnnotation() instanceof TimestampLogicalTypeAnnotation)) {
            throw new IOException(in + ": column date is not a timestamp (schema " + schema + "); the flights cannot be scaled");
        }
        for (org.apache.parquet.schema.Type field : schema.getFields()) {
            if (!field.isPrimitive() || field.isRepetition(org.apache.parquet.schema.Type.Repetition.REPEATED)) {
                // copying such a field value by value would lose all but its first value
                throw new IOException(in + ": column " + field.getName() + " is " + (field.isPrimitive() ? "repeated" : "a group")
                        + "; the flights scaler copies flat rows of single values only");
            }
        }
        int dateField = schema.getFieldIndex("date");
        long perMilli = switch (((TimestampLogicalTypeAnnotation) schema.getType(dateField).getLogicalTypeAnnotation()).getUnit()) {
            case MILLIS -> 1;
            case MICROS -> 1_000;
            case NANOS -> 1_000_000;
        };
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        Files.createDirectories(out.getParent());
        Path partial = out.resolveSibling(".writing-" + out.getFileName());
        Files.deleteIfExists(partial);
        long rows = 0;
        try (ParquetReader<Group> reader = new LocalParquetFile(in).groupReader();
             ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalParquetFile(partial))
                     .withType(schema).withCompressionCodec(CompressionCodecName.SNAPPY).build()) {
            for (Group g; (g = reader.read()) != null; ) {
                for (int k = 0; k < n; k++) {
                    writer.write(copy(g, groups, schema, dateField, k * perMilli));
                    rows++;
                }
            }
        }
        Files.move(partial, out, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return rows;
    }

    /** {@code g} with {@code shift} added to field {@code dateField}; nulls stay null. */
    private static Group copy(Group g, SimpleGroupFactory groups, MessageType schema, int dateField, long shift) {
        Group c = groups.newGroup();
        for (int i = 0; i < schema.getFieldCount(); i++) {
            if (g.getFieldRepetitionCount(i) == 0) {
                continue;
            }
            PrimitiveType t = schema.getType(i).asPrimitiveType();
            switch (t.getPrimitiveTypeName()) {
                case INT64 -> c.add(i, g.getLong(i, 0) + (i == dateField ? shift : 0));
                case INT32 -> c.add(i, g.getInteger(i, 0));
                case DOUBLE -> c.add(i, g.getDouble(i, 0));
                case FLOAT -> c.add(i, g.getFloat(i, 0));
                case BOOLEAN -> c.add(i, g.getBoolean(i, 0));
                case BINARY, FIXED_LEN_BYTE_ARRAY -> c.add(i, g.getBinary(i, 0));
                case INT96 -> c.add(i, g.getInt96(i, 0));
            }
        }
        return c;
    }

    private static long countRows(Path file) throws IOException {
        try (ParquetFileReader f = ParquetFileReader.open(new LocalParquetFile(file))) {
            return f.getRecordCount();
        }
    }
}
