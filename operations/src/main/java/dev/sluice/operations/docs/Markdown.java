package dev.sluice.operations.docs;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * A Markdown document being written: headings, paragraphs, bullet lists and pipe tables, with
 * table cells escaped ({@code |} and line breaks). Not thread-safe.
 */
final class Markdown {

    private final StringBuilder text = new StringBuilder();

    /** A heading of {@code level} (1 = {@code #}), followed by a blank line. */
    Markdown heading(int level, String title) {
        blank();
        text.append("#".repeat(level)).append(' ').append(title).append("\n\n");
        return this;
    }

    /** A paragraph, followed by a blank line. */
    Markdown paragraph(String paragraph) {
        blank();
        text.append(paragraph).append("\n\n");
        return this;
    }

    /** One bullet line ({@code - item}). */
    Markdown bullet(String item) {
        text.append("- ").append(item).append('\n');
        return this;
    }

    /** Raw lines, as given (a fenced block, a marker). */
    Markdown raw(String lines) {
        text.append(lines);
        if (!lines.endsWith("\n")) {
            text.append('\n');
        }
        return this;
    }

    /** A pipe table: a header row and the rows (each as many cells as the header), then a blank line. */
    Markdown table(List<String> header, List<List<String>> rows) {
        blank();
        row(header);
        text.append('|').append(" --- |".repeat(header.size())).append('\n');
        rows.forEach(this::row);
        text.append('\n');
        return this;
    }

    private void row(List<String> cells) {
        text.append('|');
        for (String c : cells) {
            text.append(' ').append(cell(c)).append(" |");
        }
        text.append('\n');
    }

    /** Ends a bullet list or other line run with a blank line, unless there is one already. */
    Markdown blank() {
        if (text.length() > 0 && !text.toString().endsWith("\n\n")) {
            text.append('\n');
        }
        return this;
    }

    /** Inline code: {@code `text`} (backticks inside are replaced by quotes). */
    static String code(String s) {
        return "`" + s.replace('`', '\'') + "`";
    }

    /** A table cell: pipes escaped, line breaks and runs of blanks collapsed into one space. */
    static String cell(String s) {
        return s.strip().replaceAll("\\s+", " ").replace("|", "\\|");
    }

    /** A fraction as a percentage, e.g. 0.001 → {@code 0.1 %}. */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%s %%", BigDecimal.valueOf(fraction).movePointRight(2)
                .stripTrailingZeros().toPlainString());
    }

    @Override
    public String toString() {
        String s = text.toString().stripTrailing();
        return s + "\n";
    }
}
