package dev.sluice.batch.bronze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.CsvOptions;
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
        return read(content.getBytes(StandardCharsets.UTF_8), CsvOptions.DEFAULT, 1 << 20);
    }

    private List<SourceRow> read(byte[] content, CsvOptions options, long maxLine) throws Exception {
        Path f = dir.resolve("a.csv");
        Files.write(f, content);
        List<SourceRow> rows = new ArrayList<>();
        try (SourceFileReader r = SourceFileReader.open(new dev.sluice.config.SourceSpec("a", SourceFormat.CSV, f.toString(), false,
                contract, "", null, java.util.Map.of(), options), f, contract.columns(), "landing/a.csv", maxLine)) {
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
    void aDuplicateHeaderNameIsRefusedAlsoInAnotherCase() {
        assertThatThrownBy(() -> read("iata,name,iata,latitude\nA,x,B,1\n")).isInstanceOf(BadInputException.class)
                .hasMessage("landing/a.csv, column 'iata': the header (line 1) names column 3 'iata' and column 1 'iata' alike"
                        + " (names are matched ignoring case)");
        assertThatThrownBy(() -> read("iata,Name,NAME,latitude\nA,x,B,1\n")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("names column 3 'NAME' and column 2 'Name' alike");
    }

    @Test
    void aHeaderThatEndsInTheDelimiterNamesTheColumnAndLine() {
        // before #21: "cannot read as CSV: A header name is missing in [iata, name, latitude, ]", no position
        assertThatThrownBy(() -> read("iata,name,latitude,\nA,x,1,\n")).isInstanceOf(BadInputException.class)
                .hasMessage("landing/a.csv: the header (line 1) has no name for column 4 of 4: the line ends with the delimiter ','"
                        + "; every column needs a name");
        assertThatThrownBy(() -> read("iata,,latitude\nA,x,1\n")).isInstanceOf(BadInputException.class)
                .hasMessage("landing/a.csv: the header (line 1) has no name for column 2 of 3; every column needs a name");
    }

    @Test
    void headerNamesMatchTheContractIgnoringCase() throws Exception {
        // before #21 a header ID,Name could never match: contract names are lower case
        List<SourceRow> rows = read("IATA,Name,LATITUDE\nORD,O'Hare,41.98\n");
        assertThat(rows.get(0).values()).containsExactly("ORD", "O'Hare", 41.98);
    }

    @Test
    void delimiterQuoteEscapeAndNullValuesAsTheSourceSays() throws Exception {
        CsvOptions semicolon = new CsvOptions(';', '\'', '\\', StandardCharsets.UTF_8, List.of("NA", "\\N"));
        List<SourceRow> rows = read("iata;name;latitude\nA;'x;y';1,5\nB;it\\'s;NA\nC;\\N;\\N\nNA;z;2\n"
                .getBytes(StandardCharsets.UTF_8), semicolon, 1 << 20);
        assertThat(rows.get(0).values()).containsExactly("A", "x;y", null);
        assertThat(rows.get(0).errors()).singleElement().extracting(FieldError::reason).isEqualTo("'1,5' is not a double (line 2)");
        assertThat(rows.get(1).values()).containsExactly("B", "it's", null);
        assertThat(rows.get(2).values()).containsExactly("C", null, null);
        assertThat(rows.get(3).errors()).containsExactly(new FieldError("iata", "NA", "'NA' (NULL) in a required column (line 5)"));
        for (char d : new char[] {'|', '\t'}) {
            CsvOptions o = new CsvOptions(d, '"', null, StandardCharsets.UTF_8, List.of());
            assertThat(read("iata%1$sname%1$slatitude\nA%1$s\"x, y\"%1$s2\n".formatted(d).getBytes(StandardCharsets.UTF_8), o, 1 << 20)
                    .get(0).values()).containsExactly("A", "x, y", 2.0);
        }
    }

    @Test
    void anEncodingOtherThanUtf8IsDecodedAndItsByteOrderMarkSkipped() throws Exception {
        String text = "iata,name,latitude\nZRH,Zürich,47.46\n";
        CsvOptions latin1 = new CsvOptions(',', '"', null, StandardCharsets.ISO_8859_1, List.of());
        assertThat(read(text.getBytes(StandardCharsets.ISO_8859_1), latin1, 1 << 20).get(0).values())
                .containsExactly("ZRH", "Zürich", 47.46);
        for (java.nio.charset.Charset cs : List.of(StandardCharsets.UTF_16LE, StandardCharsets.UTF_16BE)) {
            // a byte-order mark, then the text: Excel's "Unicode text" and many Windows exports
            CsvOptions utf16 = new CsvOptions(',', '"', null, StandardCharsets.UTF_16, List.of());
            assertThat(read(("\uFEFF" + text).getBytes(cs), utf16, 1 << 20).get(0).values())
                    .as(cs.name()).containsExactly("ZRH", "Zürich", 47.46);
        }
        assertThatThrownBy(() -> read(text.getBytes(StandardCharsets.ISO_8859_1), CsvOptions.DEFAULT, 1 << 20))
                .isInstanceOf(BadInputException.class).hasMessage("landing/a.csv: cannot read as CSV: not UTF-8 text (a byte sequence"
                        + " that is not valid UTF-8; the source's csv.encoding names the files' character set)");
    }

    @Test
    void aRowQuarantinedWholeKeepsItsTextAsRead() throws Exception {
        // before #21 the fields were joined with commas: "B,two, with comma,2,EXTRA", quoting lost
        List<SourceRow> rows = read("iata,name,latitude\r\nA,x,1\r\nB,\"two, with \"\"quotes\"\"\",2,EXTRA\r\nC,\"multi\nline\",3\r\n");
        assertThat(rows.get(1).errors()).containsExactly(new FieldError(null, "B,\"two, with \"\"quotes\"\"\",2,EXTRA",
                "the row has 4 fields, more than the 3 of the header (line 3)"));
        List<SourceRow> longLine = read(("iata,name,latitude\nA,x,1\nB,\"" + "y".repeat(50) + "\",2\nC,\"multi\nline\",3")
                .getBytes(StandardCharsets.UTF_8), CsvOptions.DEFAULT, 40);
        assertThat(longLine.get(1).errors()).extracting(FieldError::value).containsExactly("B,\"" + "y".repeat(50) + "\",2");
        assertThat(longLine.get(2).values()).containsExactly("C", "multi\nline", 3.0);
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
                .hasMessage("landing/a.csv: cannot read as CSV: not UTF-8 text (a byte sequence that is not valid UTF-8;"
                        + " the source's csv.encoding names the files' character set)");
    }

    @Test
    void aFileThatCannotBeParsedToItsEndIsRefusedInPlainWordsNamingRowAndLine() throws Exception {
        // a tester saw commons-csv's own words: "CSVException: Invalid character between encapsulated token and
        // delimiter at line: 3, position: 48" (position counts characters from the file's start)
        java.util.Map<String, String> files = java.util.Map.of(
                "id,v\n1,a\n2,\"closed\"x\n", "landing/s.csv, row 1: malformed CSV: the record starting on line 3 (the header is line 1)"
                        + " cannot be parsed: a quoted field is closed (quote \") and followed by a character other than the delimiter (,)"
                        + " or a line end",
                "id,v\n1,a\n2,b\n3,\"c\n", "landing/s.csv, row 2: malformed CSV: the record starting on line 4 (the header is line 1)"
                        + " cannot be parsed: a quoted field opens there (quote \") and is not closed before the end of the file");
        for (var e : files.entrySet()) {
            Path f = dir.resolve("s.csv");
            Files.writeString(f, e.getKey());
            assertThatThrownBy(() -> {
                try (CsvFile csv = CsvFile.open(f, CsvOptions.DEFAULT, "landing/s.csv")) {
                    csv.readToEnd();
                }
            }).isInstanceOf(BadInputException.class).hasMessage(e.getValue());
        }
    }
}
