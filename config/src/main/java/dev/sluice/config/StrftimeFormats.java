package dev.sluice.config;

import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.format.TextStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * C {@code strftime} formats (the directives of Python's {@code datetime.strptime},
 * https://docs.python.org/3/library/datetime.html#format-codes, which Great Expectations uses) as
 * strict java.time formatters: %Y %y %m %d %H %I %p %M %S %f %j %b %B %a %A %z %Z %%. Stateless.
 */
public final class StrftimeFormats {

    private StrftimeFormats() {
    }

    /**
     * The java.time formatter of a strftime format.
     *
     * @throws IllegalArgumentException for a directive not supported here
     */
    public static DateTimeFormatter formatter(String format) {
        DateTimeFormatterBuilder b = new DateTimeFormatterBuilder().parseStrict().parseCaseInsensitive();
        for (int i = 0; i < format.length(); i++) {
            char ch = format.charAt(i);
            if (ch != '%' || i + 1 == format.length()) {
                b.appendLiteral(ch);
                continue;
            }
            char d = format.charAt(++i);
            switch (d) {
                case 'Y' -> b.appendValue(ChronoField.YEAR, 4);
                case 'y' -> b.appendValueReduced(ChronoField.YEAR, 2, 2, 1969);
                case 'm' -> b.appendValue(ChronoField.MONTH_OF_YEAR, 2);
                case 'd' -> b.appendValue(ChronoField.DAY_OF_MONTH, 2);
                case 'H' -> b.appendValue(ChronoField.HOUR_OF_DAY, 2);
                case 'I' -> b.appendValue(ChronoField.CLOCK_HOUR_OF_AMPM, 2);
                case 'p' -> b.appendText(ChronoField.AMPM_OF_DAY);
                case 'M' -> b.appendValue(ChronoField.MINUTE_OF_HOUR, 2);
                case 'S' -> b.appendValue(ChronoField.SECOND_OF_MINUTE, 2);
                case 'f' -> b.appendFraction(ChronoField.MICRO_OF_SECOND, 1, 6, false);
                case 'j' -> b.appendValue(ChronoField.DAY_OF_YEAR, 3);
                case 'b' -> b.appendPattern("MMM");
                case 'B' -> b.appendPattern("MMMM");
                case 'a' -> b.appendPattern("EEE");
                case 'A' -> b.appendPattern("EEEE");
                case 'z' -> b.appendOffset("+HHMM", "+0000");
                case 'Z' -> b.appendZoneText(TextStyle.SHORT);
                case '%' -> b.appendLiteral('%');
                default -> throw new IllegalArgumentException("strftime directive %" + d + " is not supported");
            }
        }
        return b.toFormatter(Locale.ROOT).withResolverStyle(ResolverStyle.STRICT)
                .withChronology(IsoChronology.INSTANCE);
    }
}
