package dev.sluice.batch.bronze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.SourceFormat;
import dev.sluice.core.BadInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvSourceReaderTest {

    @TempDir
    Path dir;

    private final ContractSpec contract = new ContractSpec(Path.of("c.yaml"), "airports", 1, List.of(
            new ColumnSpec("iata", ColumnType.STRING, false),
            new ColumnSpec("name", ColumnType.STRING, true),
            new ColumnSpec("latitude", ColumnType.DOUBLE, true)), dev.sluice.config.DriftPolicy.FAIL);

    private List<SourceRow> read(String content) throws Exception {
        Path f = dir.resolve("a.csv");
        Files.write(f, content.getBytes(StandardCharsets.UTF_8));
        List<SourceRow> rows = new ArrayList<>();
        try (SourceFileReader r = SourceFileReader.open(new dev.sluice.config.SourceSpec("a", SourceFormat.CSV, f.toString(), false, contract, ""), f,
                contract.columns(), "landing/a.csv", 1 << 20)) {
            for (SourceRow row; (row = r.next()) != null; ) {
                rows.add(row);
            }
        }
        return rows;
    }

    @Test
    void bomCrlfQuotedHeadersAndColumnsByName() throws Exception {
        List<SourceRow> rows = read("\uFEFF\"latitude\",\"iata\",\"name\"\r\n31.9,00M,Thigpen\r\n,00R,\r\n");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).values()).containsExactly("00M", "Thigpen", 31.9);
        assertThat(rows.get(1).values()).containsExactly("00R", null, null);
        assertThat(rows.get(1).position()).isEqualTo(1);
    }

    @Test
    void aQuotedNewlineIsOneRecord() throws Exception {
        List<SourceRow> rows = read("iata,name,latitude\nAAA,\"two\nlines\",1.5\nBBB,x,2\n");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).values()[1]).isEqualTo("two\nlines");
    }

    @Test
    void aBadValueIsARowErrorNamingColumnValueAndLine() throws Exception {
        List<SourceRow> rows = read("iata,name,latitude\nAAA,x,1\nBBB,y,north\n,z,2\n");
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).errors()).isEmpty();
        assertThat(rows.get(1).values()).containsExactly("BBB", "y", null);
        assertThat(rows.get(1).errors()).containsExactly(new FieldError("latitude", "north", "'north' is not a double (line 3)"));
        assertThat(rows.get(2).errors()).containsExactly(new FieldError("iata", "", "empty value in a required column (line 4)"));
    }

    @Test
    void aMissingRequiredColumnIsNamedAMissingNullableOneReadsNull() throws Exception {
        assertThatThrownBy(() -> read("name,latitude\nx,1\n"))
                .isInstanceOf(BadInputException.class)
                .satisfies(e -> assertThat(((BadInputException) e).column()).isEqualTo("iata"));
        assertThat(read("iata,name\nAAA,x\n").get(0).values()).containsExactly("AAA", "x", null);
    }

    @Test
    void numbersAreStrictAndExtraFieldsAreRowErrors() throws Exception {
        List<SourceRow> rows = read("iata,name,latitude\nA,x,1e400\nB,y,0x1p3\nC,z,\u0663\nD,w,2.5d\nE,v,1.5,EXTRA\nF,u,-2.5e1\n");
        assertThat(rows).extracting(r -> r.errors().isEmpty()).containsExactly(false, false, false, false, false, true);
        assertThat(rows.get(0).errors().get(0).reason()).isEqualTo("'1e400' is not a double (out of range) (line 2)");
        assertThat(rows.get(4).errors().get(0).reason()).isEqualTo("the row has 4 fields, more than the 3 of the header (line 6)");
        assertThat(rows.get(5).values()[2]).isEqualTo(-25.0);
    }

    @Test
    void aDuplicateHeaderNameIsRefused() {
        assertThatThrownBy(() -> read("iata,name,iata,latitude\nA,x,B,1\n"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("cannot read as CSV");
    }

    @Test
    void aFileThatIsNotUtf8SaysSo() throws Exception {
        Path f = dir.resolve("a.csv");
        Files.write(f, new byte[] {'i', 'a', 't', 'a', ',', 'n', 'a', 'm', 'e', ',', 'l', 'a', 't', 'i', 't', 'u', 'd', 'e',
                '\n', 'A', ',', (byte) 0xE9, ',', '1', '\n'});
        assertThatThrownBy(() -> {
            try (SourceFileReader r = SourceFileReader.open(new dev.sluice.config.SourceSpec("a", SourceFormat.CSV,
                    f.toString(), false, contract, ""), f, contract.columns(), "landing/a.csv", 1 << 20)) {
                while (r.next() != null) {
                    // read to the end
                }
            }
        }).isInstanceOf(BadInputException.class)
                .hasMessage("landing/a.csv: cannot read as CSV: not UTF-8 text (a byte sequence that is not valid UTF-8)");
    }
}
