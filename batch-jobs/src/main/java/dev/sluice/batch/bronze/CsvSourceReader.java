package dev.sluice.batch.bronze;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.CsvOptions;
import dev.sluice.core.BadInputException;
import dev.sluice.core.BoundedText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads a CSV file with a header row in its source's dialect ({@link CsvFile}: delimiter, quote,
 * escape, encoding, a leading byte-order mark skipped). Columns are found by header name, ignoring
 * case; an empty field, or one equal to a {@code null_values} text, is NULL. A value that is not of
 * its column's type, an empty required value, a row with more fields than the header, or a line
 * longer than the limit makes a row with {@link FieldError}s (quarantined at Silver), never an
 * exception; a row-level error keeps the record's text as read. Not thread-safe.
 */
final class CsvSourceReader implements SourceFileReader {

    private final String displayName;
    private final List<ColumnSpec> columns;
    private final int[] index;
    private final CsvFile csv;
    private final long maxLineChars;
    private long position;

    CsvSourceReader(Path file, List<ColumnSpec> columns, String displayName, long maxLineChars, CsvOptions options) {
        this.displayName = displayName;
        this.maxLineChars = maxLineChars;
        this.columns = columns;
        this.csv = CsvFile.open(file, options, displayName);
        this.index = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            index[i] = csv.indexOf(columns.get(i).name());
            if (index[i] < 0 && !columns.get(i).nullable()) {
                close();
                throw new BadInputException(displayName, -1, columns.get(i).name(),
                        "the contract's column is not in the header " + BoundedText.cut(csv.names().toString(), 500));
            }
        }
    }

    @Override
    public @Nullable SourceRow next() {
        CsvFile.Record record = csv.next(position);
        if (record == null) {
            return null;
        }
        Object[] values = new Object[columns.size()];
        List<FieldError> errors = new ArrayList<>();
        long line = record.line;
        int fields = record.fields.size();
        long length = fields - 1L;
        for (String v : record.fields) {
            length += v.length();
        }
        if (length > maxLineChars) {
            errors.add(FieldError.of(null, record.raw(),
                    "line " + line + " holds " + length + " characters of values, more than the " + maxLineChars + " allowed"));
            return new SourceRow(values, position++, errors);
        }
        if (fields > csv.names().size()) {
            errors.add(FieldError.of(null, record.raw(), "the row has " + fields
                    + " fields, more than the " + csv.names().size() + " of the header (line " + line + ")"));
        }
        List<String> nullValues = csv.options().nullValues();
        for (int i = 0; i < values.length; i++) {
            ColumnSpec c = columns.get(i);
            if (index[i] < 0) {
                continue;
            }
            if (index[i] >= fields) {
                errors.add(FieldError.of(c.name(), "", "the row has " + fields + " fields, fewer than the header (line " + line + ")"));
                continue;
            }
            String raw = record.fields.get(index[i]);
            try {
                values[i] = nullValues.contains(raw) ? null : TextValues.parse(raw, c, displayName, position);
            } catch (BadInputException e) {
                errors.add(FieldError.of(c.name(), raw, e.reason() + " (line " + line + ")"));
                continue;
            }
            if (values[i] == null && !c.nullable()) {
                errors.add(FieldError.of(c.name(), raw, (raw.isEmpty() ? "empty value" : "'" + TextValues.abbreviate(raw)
                        + "' (NULL)") + " in a required column (line " + line + ")"));
            }
        }
        return new SourceRow(values, position++, errors);
    }

    @Override
    public void close() {
        csv.close();
    }
}
