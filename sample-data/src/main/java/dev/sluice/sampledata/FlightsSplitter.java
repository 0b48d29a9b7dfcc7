package dev.sluice.sampledata;

import dev.sluice.formats.LocalParquetFile;
import dev.sluice.formats.ParquetTimestamps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;

/**
 * Splits the flights file into one Parquet file per flight date, {@code dt=YYYY-MM-DD/flights.parquet},
 * with the source's schema (same columns, types and order) and the source's row order within a
 * date. The date is the calendar date of the naive {@code date} timestamp. Stateless.
 */
final class FlightsSplitter {

    record Split(int files, long rows) {
    }

    private FlightsSplitter() {
    }

    static Split split(Path source, Path targetDir) throws IOException {
        MessageType schema;
        try (ParquetFileReader f = ParquetFileReader.open(new LocalParquetFile(source))) {
            schema = f.getFileMetaData().getSchema();
        }
        int dateField = schema.getFieldIndex("date");
        var ts = (TimestampLogicalTypeAnnotation) schema.getType(dateField).getLogicalTypeAnnotation();
        Map<LocalDate, ParquetWriter<Group>> writers = new TreeMap<>();
        long rows = 0;
        try (ParquetReader<Group> reader = new LocalParquetFile(source).groupReader()) {
            for (Group g; (g = reader.read()) != null; rows++) {
                LocalDate day = ParquetTimestamps.toLocalDateTime(g.getLong(dateField, 0), ts).toLocalDate();
                ParquetWriter<Group> w = writers.get(day);
                if (w == null) {
                    Path dir = Files.createDirectories(targetDir.resolve("dt=" + day));
                    w = ExampleParquetWriter.builder(new LocalParquetFile(dir.resolve("flights.parquet")))
                            .withType(schema).withCompressionCodec(CompressionCodecName.SNAPPY).build();
                    writers.put(day, w);
                }
                w.write(g);
            }
        } finally {
            for (ParquetWriter<Group> w : writers.values()) {
                w.close();
            }
        }
        return new Split(writers.size(), rows);
    }
}
