package dev.sluice.engine.lakehouse;

import java.util.Locale;

/**
 * The one spelling Sluice bridges between the warehouse databases and Spark SQL: layer SQL writes
 * the double type {@code DOUBLE PRECISION} (ANSI; H2's and PostgreSQL's own), which Spark's parser
 * refuses; {@link #toSpark} turns it into Spark's {@code DOUBLE}. Nothing else is rewritten: the
 * rest of the shared subset (docs/engines.md, "The shared SQL subset") means the same on H2,
 * PostgreSQL and Spark as written. Stateless and thread-safe.
 */
public final class SparkDialect {

    private SparkDialect() {
    }

    /**
     * {@code sql} with every type name {@code DOUBLE PRECISION} (any case, any whitespace between
     * the two words, as two whole words) replaced by {@code DOUBLE}, except inside string literals
     * ({@code '...'}, {@code ''} an escaped quote), quoted identifiers ({@code "..."},
     * {@code `...`}) and comments ({@code --} to the end of the line, {@code /* ... *}{@code /}).
     * The line breaks between the two words are kept after {@code DOUBLE}, so a line number Spark
     * reports is the line of {@code sql}. An unterminated literal, identifier or comment runs to the
     * end of {@code sql} (and is left as it is, for the parser to report).
     *
     * @param sql a SELECT or expression of the shared subset, not null
     * @return the SQL Spark's parser reads; {@code sql} itself when there is nothing to rewrite
     */
    public static String toSpark(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            int end;
            if (c == '\'' || c == '"' || c == '`') {
                end = closingQuote(sql, i, c);
            } else if (c == '-' && sql.startsWith("--", i)) {
                int nl = sql.indexOf('\n', i);
                end = nl < 0 ? n : nl;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int close = sql.indexOf("*/", i + 2);
                end = close < 0 ? n : close + 2;
            } else if (isWordStart(c) && (i == 0 || !isWordPart(sql.charAt(i - 1)))) {
                end = wordEnd(sql, i);
                int rewritten = doublePrecisionEnd(sql, i, end);
                if (rewritten > 0) {
                    out.append(sql, i, end); // DOUBLE as written
                    sql.substring(end, rewritten).chars().filter(ch -> ch == '\n').forEach(ch -> out.append('\n'));
                    i = rewritten;
                    continue;
                }
            } else {
                end = i + 1;
            }
            out.append(sql, i, end);
            i = end;
        }
        return out.toString();
    }

    /** The index after the quote closing the one at {@code start} (a doubled quote escapes it), or the length. */
    private static int closingQuote(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    /**
     * When the word {@code [start, end)} is {@code DOUBLE} followed by whitespace and the whole word
     * {@code PRECISION}, the index after {@code PRECISION}; else 0.
     */
    private static int doublePrecisionEnd(String sql, int start, int end) {
        if (!sql.substring(start, end).toUpperCase(Locale.ROOT).equals("DOUBLE")) {
            return 0;
        }
        int j = end;
        while (j < sql.length() && Character.isWhitespace(sql.charAt(j))) {
            j++;
        }
        if (j == end || j >= sql.length() || !isWordStart(sql.charAt(j))) {
            return 0;
        }
        int wordEnd = wordEnd(sql, j);
        return sql.substring(j, wordEnd).toUpperCase(Locale.ROOT).equals("PRECISION") ? wordEnd : 0;
    }

    private static int wordEnd(String sql, int start) {
        int i = start;
        while (i < sql.length() && isWordPart(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
