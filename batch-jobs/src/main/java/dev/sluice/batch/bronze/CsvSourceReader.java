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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;

/**
 * Reads an RFC 4180 CSV file with a header row (UTF-8, a leading byte-order mark skipped) with
 * commons-csv. Columns are found by header name; an empty field is NULL. A value that is not of its
 * column's type, an empty required value, or a line longer than the limit makes a row with
 * {@link FieldError}s (quarantined at Silver), never an exception. Not thread-safe.
 */
final class CsvSourceReader implements SourceFileReader {

    private final String displayName;
    private final List<ColumnSpec> columns;
    private final int[] index;
    private final Reader reader;
    private final CSVParser parser;
    private final Iterator<CSVRecord> records;
    private final long maxLineChars;
    private long position;

    CsvSourceReader(Path file, List<ColumnSpec> columns, String displayName, long maxLineChars) {
        this.displayName = displayName;
        this.maxLineChars = maxLineChars;
        this.columns = columns;
        try {
            BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8);
            r.mark(1);
            if (r.read() != '\uFEFF') {
                r.reset();
            }
            this.reader = r;
            this.parser = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true)
                    .setDuplicateHeaderMode(org.apache.commons.csv.DuplicateHeaderMode.DISALLOW).get().parse(r);
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            throw new BadInputException(displayName, -1, null, "cannot read as CSV: " + LandingFiles.reason(e), e);
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
            throw new BadInputException(displayName, position, null, "malformed CSV: " + LandingFiles.reason(e), e);
        }
        Object[] values = new Object[columns.size()];
        List<FieldError> errors = new ArrayList<>();
        long line = record.getParser().getCurrentLineNumber();
        long length = record.size() - 1L;
        for (String v : record) {
            length += v.length();
        }
        if (length > maxLineChars) {
            errors.add(FieldError.of(null, String.join(",", record.toList()),
                    "line " + line + " holds " + length + " characters of values, more than the " + maxLineChars + " allowed"));
            return new SourceRow(values, position++, errors);
        }
        if (record.size() > parser.getHeaderNames().size()) {
            errors.add(FieldError.of(null, String.join(",", record.toList()), "the row has " + record.size()
                    + " fields, more than the " + parser.getHeaderNames().size() + " of the header (line " + line + ")"));
        }
        for (int i = 0; i < values.length; i++) {
            ColumnSpec c = columns.get(i);
            if (index[i] < 0) {
                continue;
            }
            if (index[i] >= record.size()) {
                errors.add(FieldError.of(c.name(), "", "the row has " + record.size() + " fields, fewer than the header (line " + line + ")"));
                continue;
            }
            String raw = record.get(index[i]);
            try {
                values[i] = TextValues.parse(raw, c, displayName, position);
            } catch (BadInputException e) {
                errors.add(FieldError.of(c.name(), raw, e.reason() + " (line " + line + ")"));
                continue;
            }
            if (values[i] == null && !c.nullable()) {
                errors.add(FieldError.of(c.name(), raw, "empty value in a required column (line " + line + ")"));
            }
        }
        return new SourceRow(values, position++, errors);
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
