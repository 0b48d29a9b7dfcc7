package dev.sluice.batch.bronze;

import dev.sluice.config.CsvOptions;
import dev.sluice.core.BadInputException;
import dev.sluice.core.BoundedText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.csv.DuplicateHeaderMode;
import org.jspecify.annotations.Nullable;

/**
 * A CSV file opened in its source's dialect ({@link CsvOptions}) with commons-csv: decoded in its
 * encoding (a malformed byte sequence fails the file naming the encoding), a leading byte-order
 * mark skipped, the header checked and indexed ignoring case, and each record's text kept as read
 * (quotes and all) until the next record is read, for a row that is quarantined whole.
 *
 * <p>Header rules: every column has a name (a header ending in the delimiter, {@code a,b,c,}, is
 * refused naming the column and line), and no two names are equal ignoring case
 * ({@link Locale#ROOT}). Names are reported in lower case ({@link #names()}). Messages quote at
 * most {@value #NAME_CHARS} characters of a name. Not thread-safe.
 */
public final class CsvFile implements AutoCloseable {

    /** Characters of a header name a message quotes. */
    static final int NAME_CHARS = 120;

    private final String displayName;
    private final CsvOptions options;
    private final RecordText text;
    private final CSVParser parser;
    private final Iterator<CSVRecord> records;
    private final List<String> names;
    private final Map<String, Integer> index = new HashMap<>();
    private @Nullable CSVRecord pending;
    private long pendingLine;
    private @Nullable RuntimeException pendingFailure;
    /** The line the unparseable record starts on (1-based; the header is line 1), when {@link #pendingFailure} is set. */
    private long failureLine;

    private CsvFile(String displayName, CsvOptions options, RecordText text, CSVParser parser) {
        this.displayName = displayName;
        this.options = options;
        this.text = text;
        this.parser = parser;
        List<String> header = parser.getHeaderNames();
        this.names = header.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
        checkHeader(header);
        this.records = parser.iterator();
        advance();
    }

    /**
     * Opens {@code file} and reads its header.
     *
     * @throws BadInputException naming the file (and for a header fault the column and line) when it
     *     cannot be read in its encoding or as CSV, or its header lacks a name or names one twice
     */
    public static CsvFile open(Path file, CsvOptions options, String displayName) {
        RecordText text = null;
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), options.encoding().newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)));
            r.mark(1);
            if (r.read() != '\uFEFF') {
                r.reset();
            }
            text = new RecordText(r);
            CSVParser parser = format(options).parse(text);
            return new CsvFile(displayName, options, text, parser);
        } catch (IOException | UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
            closeQuietly(text);
            throw new BadInputException(displayName, -1, null, "cannot read as CSV: " + reason(e, options), e);
        } catch (BadInputException e) {
            closeQuietly(text);
            throw e;
        }
    }

    private static CSVFormat format(CsvOptions o) {
        return CSVFormat.RFC4180.builder().setDelimiter(o.delimiter()).setQuote(o.quote()).setEscape(o.escape())
                .setHeader().setSkipHeaderRecord(true).setAllowMissingColumnNames(true)
                .setDuplicateHeaderMode(DuplicateHeaderMode.ALLOW_ALL).get();
    }

    private void checkHeader(List<String> header) {
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            String name = header.get(i);
            if (name == null || name.isEmpty()) {
                close();
                throw new BadInputException(displayName, -1, null, "the header (line 1) has no name for column " + (i + 1)
                        + " of " + header.size() + (i == header.size() - 1 && i > 0 ? ": the line ends with the delimiter '"
                        + options.delimiter() + "'" : "") + "; every column needs a name");
            }
            Integer before = seen.putIfAbsent(names.get(i), i);
            if (before != null) {
                close();
                throw new BadInputException(displayName, -1, BoundedText.cut(name, NAME_CHARS), "the header (line 1) names column "
                        + (i + 1) + " '" + BoundedText.cut(name, NAME_CHARS) + "' and column " + (before + 1) + " '"
                        + BoundedText.cut(header.get(before), NAME_CHARS) + "' alike (names are matched ignoring case)");
            }
            index.put(names.get(i), i);
        }
    }

    /** The header's names in lower case, in file order. */
    public List<String> names() {
        return names;
    }

    /** The 0-based field of a column (its name in any case), or -1 when the header lacks it. */
    int indexOf(String column) {
        return index.getOrDefault(column.toLowerCase(Locale.ROOT), -1);
    }

    /** The dialect the file is read in. */
    CsvOptions options() {
        return options;
    }

    /**
     * The next record, or null at the end.
     *
     * @throws BadInputException naming the file and row when the CSV is malformed there (an
     *     unclosed quote) or cannot be decoded
     */
    @Nullable Record next(long position) {
        if (pendingFailure != null) {
            throw new BadInputException(displayName, position, null, "malformed CSV: the record starting on line " + failureLine
                    + " (the header is line 1) cannot be parsed: " + malformed(pendingFailure, options), pendingFailure);
        }
        CSVRecord record = pending;
        if (record == null) {
            return null;
        }
        long line = pendingLine;
        advance();
        long start = record.getCharacterPosition();
        long end = pending != null ? pending.getCharacterPosition() : text.position();
        return new Record(record, line, start, end);
    }

    /** Reads the record after the current one, so that the current one's text is known to end there. */
    private void advance() {
        if (pending != null) {
            text.forget(pending.getCharacterPosition());
        }
        long endOfLast = pending == null ? 1 : pendingLine;
        try {
            pending = records.hasNext() ? records.next() : null;
            pendingLine = parser.getCurrentLineNumber();
        } catch (UncheckedIOException | IllegalStateException e) {
            pending = null;
            pendingFailure = e;
            failureLine = endOfLast + 1;
        }
    }

    /**
     * Reads every record to the end without keeping any: the structure check a landed file passes
     * before anything of it is written, so that a file that cannot be parsed to its end (a quote
     * never closed, a character between a closing quote and the delimiter, bytes not in the
     * encoding) is refused whole, before any write.
     *
     * @throws BadInputException naming the file, the row and the line where parsing fails
     */
    public void readToEnd() {
        for (long row = 0; next(row) != null; row++) {
            // only the structure is checked here; values are judged when the rows are read into Bronze
        }
    }

    /**
     * Why commons-csv could not parse a record, in plain words where its message is known
     * (commons-csv 1.14 {@code Lexer}: an unclosed quote, a character after a closing quote, the file
     * ending after the escape character); else its own message without class names or its
     * {@code (startline N)} and {@code position} (characters from the file's start, not a column).
     */
    private static String malformed(RuntimeException e, CsvOptions options) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = String.valueOf(root.getMessage());
        if (root instanceof CharacterCodingException) {
            return reason(e, options);
        } else if (m.contains("EOF reached before encapsulated token finished")) {
            return "a quoted field opens there (quote " + options.quote() + ") and is not closed before the end of the file";
        } else if (m.contains("Invalid character between encapsulated token and delimiter")) {
            return "a quoted field is closed (quote " + options.quote() + ") and followed by a character other than the delimiter ("
                    + options.delimiter() + ") or a line end";
        } else if (m.contains("EOF while processing escape sequence")) {
            return "the file ends right after the escape character (" + options.escape() + ")";
        }
        return BoundedText.cut(m.replaceAll("([a-z]+\\.)+[A-Z][A-Za-z]*(Exception|Error): ", "")
                .replaceFirst("^\\(startline \\d+\\)\\s*", "").replaceFirst(" at line: \\d+, position: \\d+", ""), 500);
    }

    /**
     * One record as parsed, with where it is.
     *
     * @param fields the record's fields
     * @param line the line the record ends on (1-based; the header is line 1)
     */
    final class Record {
        final CSVRecord fields;
        final long line;
        private final long start;
        private final long end;

        private Record(CSVRecord fields, long line, long start, long end) {
            this.fields = fields;
            this.line = line;
            this.start = start;
            this.end = end;
        }

        /** The record's text as read, quotes and escapes included, without its line break. */
        String raw() {
            String s = text.text(start, end);
            return s.endsWith("\r\n") ? s.substring(0, s.length() - 2)
                    : s.endsWith("\n") || s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
        }
    }

    @Override
    public void close() {
        try {
            parser.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            closeQuietly(text);
        }
    }

    private static void closeQuietly(@Nullable Reader r) {
        if (r != null) {
            try {
                r.close();
            } catch (IOException ignored) {
                // nothing was written: a failed close loses nothing
            }
        }
    }

    /** Why a file could not be read, naming the encoding when its bytes are not valid in it. */
    static String reason(Throwable e, CsvOptions options) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CharacterCodingException) {
                String cs = options.encoding().name();
                return "not " + cs + " text (a byte sequence that is not valid " + cs + "; the source's csv.encoding names the"
                        + " files' character set)";
            }
        }
        return BoundedText.cut(LandingFiles.reason(e), 500);
    }

    /**
     * The characters the parser has read, from the start of the oldest record still wanted: the
     * parser reads ahead, so a record's text is cut from here by its character positions
     * ({@link CSVRecord#getCharacterPosition()}, counted from the first character after a
     * byte-order mark).
     */
    private static final class RecordText extends Reader {
        private final Reader in;
        private final StringBuilder kept = new StringBuilder();
        /** The position of {@code kept}'s first character. */
        private long keptFrom;
        /** Characters at the start of {@code kept} no longer wanted (dropped when they are the larger part). */
        private int dead;

        RecordText(Reader in) {
            this.in = in;
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            int n = in.read(buf, off, len);
            if (n > 0) {
                kept.append(buf, off, n);
            }
            return n;
        }

        /** Characters read so far. */
        long position() {
            return keptFrom + kept.length();
        }

        /** The characters from {@code from} to {@code to} (as far as they are kept). */
        String text(long from, long to) {
            int a = (int) Math.max(dead, from - keptFrom);
            int b = (int) Math.min(kept.length(), Math.max(a, to - keptFrom));
            return kept.substring(a, b);
        }

        /** Forgets the characters before {@code position}; amortized constant time. */
        void forget(long position) {
            dead = (int) Math.max(dead, Math.min(kept.length(), position - keptFrom));
            if (dead > 1 << 16 && dead > kept.length() / 2) {
                kept.delete(0, dead);
                keptFrom += dead;
                dead = 0;
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
