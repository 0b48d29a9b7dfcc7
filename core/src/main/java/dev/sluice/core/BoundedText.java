package dev.sluice.core;

/**
 * Text from user input cut to a bound before it is stored or printed: a header line, a column
 * name, a value list, a reason. A cut text keeps its start, ends with an ellipsis and says how long
 * the original was, e.g. {@code "aaaa… (5000 characters)"}; it is never longer than the bound and
 * never ends in half of a UTF-16 surrogate pair. Stateless and thread-safe.
 */
public final class BoundedText {

    private BoundedText() {
    }

    /**
     * {@code text} itself when it has at most {@code maxChars} characters (UTF-16 code units), else
     * its start, {@code …} and {@code (N characters)}, in at most {@code maxChars} characters.
     *
     * @param maxChars the bound, at least 32 (room for the suffix and some of the text)
     * @throws IllegalArgumentException when {@code maxChars} is below 32
     */
    public static String cut(String text, int maxChars) {
        if (maxChars < 32) {
            throw new IllegalArgumentException("a bound of at least 32 characters, not " + maxChars);
        }
        if (text.length() <= maxChars) {
            return text;
        }
        String suffix = "… (" + text.length() + " characters)";
        return prefix(text, maxChars - suffix.length()) + suffix;
    }

    /**
     * The first {@code maxChars} characters of {@code text} (all of it when shorter), one fewer when
     * the last would be the high half of a surrogate pair.
     */
    public static String prefix(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        int end = Math.max(0, maxChars);
        if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end);
    }
}
