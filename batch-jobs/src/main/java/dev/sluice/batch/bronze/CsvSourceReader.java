package dev.sluice.batch.bronze;

import dev.sluice.config.ColumnSpec;
import dev.sluice.core.BadInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;

/**
 * Reads an RFC 4180 CSV file with a header row (UTF-8, a leading byte-order mark skipped) with
 * commons-csv. Columns are found by header name; an empty field is NULL. Not thread-safe.
 */
final class CsvSourceReader implements SourceFileReader {

    private final String displayName;
    private final List<ColumnSpec> columns;
    private final int[] index;
    private final Reader reader;
    private final CSVParser parser;
    private final Iterator<CSVRecord> records;
    private long position;

    CsvSourceReader(Path file, List<ColumnSpec> columns, String displayName) {
        this.displayName = displayName;
        this.columns = columns;
        try {
            BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8);
            r.mark(1);
            if (r.read() != '\uFEFF') {
                r.reset();
            }
            this.reader = r;
            this.parser = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(r);
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            throw new BadInputException(displayName, -1, null, "cannot read as CSV: " + e.getMessage(), e);
        }
        Map<String, Integer> header = parser.getHeaderMap();
        this.index = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            Integer at = header.get(columns.get(i).name());
            if (at == null && columns.get(i).nullable()) {
                index[i] = -1;
                continue;
            }
            if (at == null) {
                close();
                throw new BadInputException(displayName, -1, columns.get(i).name(),
                        "the contract's column is not in the header " + header.keySet());
            }
            index[i] = at;
        }
        this.records = parser.iterator();
    }

    @Override
    public @Nullable SourceRow next() {
        CSVRecord record;
        try {
            if (!records.hasNext()) {
                return null;
            }
            record = records.next();
        } catch (UncheckedIOException | IllegalStateException e) {
            throw new BadInputException(displayName, position, null, "malformed CSV: " + e.getMessage(), e);
        }
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
            ColumnSpec c = columns.get(i);
            if (index[i] < 0) {
                continue;
            }
            if (index[i] >= record.size()) {
                throw new BadInputException(displayName, position, c.name(),
                        "the row has " + record.size() + " fields, the header more");
            }
            try {
                values[i] = TextValues.parse(record.get(index[i]), c, displayName, position);
            } catch (BadInputException e) {
                throw new BadInputException(displayName, position, c.name(),
                        e.reason() + " (line " + record.getParser().getCurrentLineNumber() + ")", e);
            }
        }
        return new SourceRow(values, position++);
    }

    @Override
    public void close() {
        try {
            parser.close();
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
