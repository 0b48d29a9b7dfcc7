package dev.sluice.core;

import org.jspecify.annotations.Nullable;

/**
 * Input that cannot be read as its contract says. Carries where: the file, the row (0-based
 * position in the file, or -1 when the whole file is at fault), the column (null when the row or
 * file as a whole is at fault) and the reason. Each part comes from user input and is bounded
 * ({@link BoundedText}): the file and column to {@value #MAX_NAME_CHARS} characters, the reason to
 * {@value #MAX_REASON_CHARS}, so that no message prints or stores a whole header line or value list.
 */
public class BadInputException extends SluiceException {

    /** Characters kept of the file and column names. */
    public static final int MAX_NAME_CHARS = 200;
    /** Characters kept of the reason. */
    public static final int MAX_REASON_CHARS = 16_000;

    private final String file;
    private final long row;
    private final @Nullable String column;
    private final String reason;

    public BadInputException(String file, long row, @Nullable String column, String reason,
            @Nullable Throwable cause) {
        super(describe(name(file), row, column == null ? null : name(column), BoundedText.cut(reason, MAX_REASON_CHARS)), cause);
        this.file = name(file);
        this.row = row;
        this.column = column == null ? null : name(column);
        this.reason = BoundedText.cut(reason, MAX_REASON_CHARS);
    }

    private static String name(String text) {
        return BoundedText.cut(text, MAX_NAME_CHARS);
    }

    public BadInputException(String file, long row, @Nullable String column, String reason) {
        this(file, row, column, reason, null);
    }

    private static String describe(String file, long row, @Nullable String column, String reason) {
        StringBuilder s = new StringBuilder(file);
        if (row >= 0) {
            s.append(", row ").append(row);
        }
        if (column != null) {
            s.append(", column '").append(column).append('\'');
        }
        return s.append(": ").append(reason).toString();
    }

    /** The file that could not be read. */
    public String file() {
        return file;
    }

    /** The 0-based row in the file, or -1 when the whole file is at fault. */
    public long row() {
        return row;
    }

    /** The column at fault, or null. */
    public @Nullable String column() {
        return column;
    }

    /** Why the input was refused. */
    public String reason() {
        return reason;
    }
}
