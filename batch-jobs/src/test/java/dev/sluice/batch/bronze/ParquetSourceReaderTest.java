package dev.sluice.batch.bronze;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import java.nio.file.Path;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
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
}
