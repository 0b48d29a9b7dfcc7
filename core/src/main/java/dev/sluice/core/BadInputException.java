package dev.sluice.core;

import org.jspecify.annotations.Nullable;

/**
 * Input that cannot be read as its contract says. Carries where: the file, the row (0-based
 * position in the file, or -1 when the whole file is at fault), the column (null when the row or
 * file as a whole is at fault) and the reason.
 */
public class BadInputException extends SluiceException {

    private final String file;
    private final long row;
    private final @Nullable String column;
    private final String reason;

    public BadInputException(String file, long row, @Nullable String column, String reason,
            @Nullable Throwable cause) {
        super(describe(file, row, column, reason), cause);
        this.file = file;
        this.row = row;
        this.column = column;
        this.reason = reason;
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
