package dev.sluice.batch.bronze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.DecimalSpec;
import dev.sluice.config.DriftPolicy;
import dev.sluice.config.SourceFormat;
import dev.sluice.config.SourceSpec;
import dev.sluice.core.BadInputException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonSourceReaderTest {

    @TempDir
    Path dir;

    private static final List<ColumnSpec> QUAKE = List.of(
            new ColumnSpec("id", ColumnType.STRING, false),
            new ColumnSpec("mag", ColumnType.DOUBLE, true, "/properties/mag"),
            new ColumnSpec("event_time", ColumnType.TIMESTAMP, false, "/properties/time"),
            new ColumnSpec("longitude", ColumnType.DOUBLE, true, "/geometry/coordinates/0"));

    private List<SourceRow> read(SourceFormat format, String arrayPath, String content) throws Exception {
        Path f = Files.writeString(dir.resolve("f.json"), content);
        ContractSpec contract = new ContractSpec(Path.of("q.v1.yaml"), "q", 1, QUAKE, DriftPolicy.IGNORE);
        List<SourceRow> rows = new ArrayList<>();
        try (SourceFileReader r = SourceFileReader.open(new SourceSpec("q", format, f.toString(), true, contract, arrayPath),
                f, QUAKE, "landing/f.json", 200)) {
            for (SourceRow row; (row = r.next()) != null; ) {
                rows.add(row);
            }
        }
        return rows;
    }

    @Test
    void geoJsonFeaturesMapNestedFieldsByPath() throws Exception {
        List<SourceRow> rows = read(SourceFormat.JSON, "/features", """
                {"type": "FeatureCollection", "features": [
                  {"type": "Feature", "id": "ci1", "properties": {"mag": 2, "time": 1517966773840},
                   "geometry": {"type": "Point", "coordinates": [-118.63, 34.49, 7.2]}},
                  {"type": "Feature", "id": "ci2", "properties": {"mag": "strong", "time": 1517966773840},
                   "geometry": {"type": "Point", "coordinates": [-118.1, 34.0]}},
                  {"type": "Feature", "properties": {"time": 1517966773840}}
                ]}
                """);
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).values()).containsExactly("ci1", 2.0, LocalDateTime.parse("2018-02-07T01:26:13.840"), -118.63);
        assertThat(rows.get(0).errors()).isEmpty();
        assertThat(rows.get(1).values()[1]).isNull();
        assertThat(rows.get(1).errors()).containsExactly(new FieldError("mag", "strong", "'strong' is not a double"));
        assertThat(rows.get(2).errors()).containsExactly(new FieldError("id", "", "nothing at /id in a required column"));
    }

    @Test
    void ndjsonBadLinesAreRowErrorsAndBlankLinesAreSkipped() throws Exception {
        List<SourceRow> rows = read(SourceFormat.NDJSON, "", """
                {"id": "a", "properties": {"time": 0}}

                {"id": "b", "properties": {"time": 0}
                [1, 2]
                {"id": "c", "properties": {"time": 0}, "pad": "%s"}
                """.formatted("x".repeat(300)));
        assertThat(rows).extracting(SourceRow::position).containsExactly(0L, 1L, 2L, 3L);
        assertThat(rows.get(0).errors()).isEmpty();
        assertThat(rows.get(1).errors()).singleElement().satisfies(e -> assertThat(e.reason()).startsWith("not valid JSON"));
        assertThat(rows.get(2).errors()).singleElement().satisfies(e -> assertThat(e.reason()).isEqualTo("the record is a JSON array, not an object (line 4)"));
        assertThat(rows.get(3).errors()).singleElement().satisfies(e -> assertThat(e.reason()).contains("more than the 200 allowed"));
    }

    @Test
    void aDocumentWithoutTheArrayIsAFileError() {
        assertThatThrownBy(() -> read(SourceFormat.JSON, "/features", "{\"type\": \"FeatureCollection\"}"))
                .isInstanceOf(BadInputException.class).hasMessage("landing/f.json: no JSON array at /features");
        assertThatThrownBy(() -> read(SourceFormat.JSON, "", "[{\"id\": 1},"))
                .isInstanceOf(BadInputException.class).hasMessageStartingWith("landing/f.json: not valid JSON at line 1");
    }

    @Test
    void numbersAreReadExactlyADoubleThatWouldRoundIsAFieldErrorAndADecimalKeepsEveryDigit() throws Exception {
        List<ColumnSpec> columns = List.of(new ColumnSpec("id", ColumnType.STRING, false),
                new ColumnSpec("score", ColumnType.DOUBLE, true), ColumnSpec.decimal("amount", new DecimalSpec(20, 2), true));
        Path f = Files.writeString(dir.resolve("n.ndjson"), """
                {"id": "a", "score": 0.1, "amount": 9007199254740993}
                {"id": "b", "score": 12345678901234567.89, "amount": 12345678901234567.89}
                {"id": "c", "score": 9007199254740993, "amount": "0.10"}
                {"id": "d", "score": 1e400, "amount": 0.001}
                """);
        ContractSpec contract = new ContractSpec(Path.of("n.v1.yaml"), "n", 1, columns, DriftPolicy.FAIL);
        List<SourceRow> rows = new ArrayList<>();
        try (SourceFileReader r = SourceFileReader.open(new SourceSpec("n", SourceFormat.NDJSON, f.toString(), true, contract, ""),
                f, columns, "landing/n.ndjson", 1 << 20)) {
            for (SourceRow row; (row = r.next()) != null; ) {
                rows.add(row);
            }
        }
        assertThat(rows.get(0).values()).containsExactly("a", 0.1, new BigDecimal("9007199254740993.00"));
        assertThat(rows.get(0).errors()).isEmpty();
        assertThat(rows.get(1).values()).containsExactly("b", null, new BigDecimal("12345678901234567.89"));
        assertThat(rows.get(1).errors()).containsExactly(new FieldError("score", "12345678901234567.89",
                "JSON 12345678901234567.89 would be rounded to 1.2345678901234568E16 as a double (19 significant digits, more than"
                        + " the 17 a double keeps): declare the column decimal(p,s) to keep it exactly, or lossy: true to accept"
                        + " the rounding (line 2)"));
        assertThat(rows.get(2).values()).containsExactly("c", null, new BigDecimal("0.10"));
        assertThat(rows.get(2).errors()).extracting(FieldError::reason).singleElement().asString()
                .startsWith("JSON 9007199254740993 would be rounded to 9.007199254740992E15 as a double (beyond ±2^53");
        assertThat(rows.get(3).errors()).extracting(FieldError::reason).containsExactly(
                "JSON 1E+400 is not a double (out of range) (line 4)",
                "JSON 0.001 does not fit decimal(20,2): 3 digits after the point, decimal(20,2) keeps 2 (it would be rounded) (line 4)");
    }
}
