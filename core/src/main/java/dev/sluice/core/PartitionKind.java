package dev.sluice.core;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.format.TextStyle;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;

/**
 * How a pipeline's partitions are cut: by business day, hour or month in the schedule's time zone,
 * or one per scheduled fire. The key of each is its start, written so that keys sort in time order:
 * <ul>
 *   <li>{@link #DAILY} {@code 2001-07-01}: the day [D 00:00, D+1 00:00);</li>
 *   <li>{@link #HOURLY} {@code 2001-07-01T05}: the UTC hour [05:00, 06:00) (always UTC: a local
 *       hour repeats when clocks fall back, so it cannot name one partition);</li>
 *   <li>{@link #MONTHLY} {@code 2001-07}: the month;</li>
 *   <li>{@link #PER_FIRE} {@code 2026-11-30T08:45:02Z}: the fire's scheduled instant in UTC, to the second.</li>
 * </ul>
 * Day and month keys are local to the zone that cut them (the schedule's); their nominal interval is
 * read in UTC unless a zone is given. Immutable and thread-safe.
 */
public enum PartitionKind {
    DAILY("daily"),
    HOURLY("hourly"),
    MONTHLY("monthly"),
    PER_FIRE("per_fire");

    // strict: the default (smart) resolver read hour 24 as the next day's 00 and kept "T24" as the key
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH", Locale.ROOT)
            .withResolverStyle(ResolverStyle.STRICT);
    private static final DateTimeFormatter FIRE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT)
            .withResolverStyle(ResolverStyle.STRICT);

    private final String id;

    PartitionKind(String id) {
        this.id = id;
    }

    /** The spec's name of the kind ({@code partitioning.kind}). */
    public String id() {
        return id;
    }

    /** The kind named {@code id} in a spec. */
    public static Optional<PartitionKind> of(String id) {
        for (PartitionKind k : values()) {
            if (k.id.equals(id)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    /**
     * The partition holding {@code time} (its day, hour or month in {@code time}'s zone; for
     * {@link #PER_FIRE} the instant itself, truncated to the second).
     */
    public Partition containing(ZonedDateTime time) {
        return switch (this) {
            case DAILY -> new Partition(time.toLocalDate().toString());
            case HOURLY -> new Partition(time.withZoneSameInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.HOURS).format(HOUR));
            case MONTHLY -> new Partition(YearMonth.from(time).toString());
            case PER_FIRE -> new Partition(time.withZoneSameInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).format(FIRE));
        };
    }

    /** The partition {@code steps} periods after {@code p} (negative: before); a per-fire partition has no neighbours. */
    public Partition shift(Partition p, int steps) {
        if (steps == 0) {
            return p;
        }
        return switch (this) {
            case DAILY -> new Partition(LocalDate.parse(p.key()).plusDays(steps).toString());
            case HOURLY -> new Partition(LocalDateTime.parse(p.key(), HOUR).plusHours(steps).format(HOUR));
            case MONTHLY -> new Partition(YearMonth.parse(p.key()).plusMonths(steps).toString());
            case PER_FIRE -> throw new IllegalArgumentException("a per-fire partition has no neighbours to shift to");
        };
    }

    /**
     * Parses a key of this kind.
     *
     * @throws SluiceException naming the expected form when {@code text} is not one, or, when it has
     *     the form, what does not exist (e.g. {@code '2001-02-30' has the form YYYY-MM-DD but is not
     *     a date: February 2001 has 28 days})
     */
    public Partition parse(String text) {
        try {
            switch (this) {
                case DAILY -> LocalDate.parse(text);
                case HOURLY -> LocalDateTime.parse(text, HOUR);
                case MONTHLY -> YearMonth.parse(text);
                case PER_FIRE -> LocalDateTime.parse(text, FIRE);
            }
            return new Partition(text);
        } catch (DateTimeParseException e) {
            String what = switch (this) {
                case DAILY -> "a date";
                case HOURLY -> "an hour (UTC)";
                case MONTHLY -> "a month";
                case PER_FIRE -> "a fire instant (UTC)";
            };
            if (ofKey(text).filter(k -> k == this).isPresent()) {
                throw new SluiceException("'" + text + "' has the form " + form() + " but is not " + what + ": " + missing(text));
            }
            throw new SluiceException("'" + text + "' is not " + what + " of the form " + form());
        }
    }

    /** What does not exist in {@code text}, a key of this kind's form that does not parse. */
    private String missing(String text) {
        int year = Integer.parseInt(text.substring(0, 4));
        int month = Integer.parseInt(text.substring(5, 7));
        if (month < 1 || month > 12) {
            return "there is no month " + month;
        }
        if (this != MONTHLY) {
            YearMonth ym = YearMonth.of(year, month);
            int day = Integer.parseInt(text.substring(8, 10));
            if (day < 1 || day > ym.lengthOfMonth()) {
                return ym.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + year + " has "
                        + ym.lengthOfMonth() + " days";
            }
        }
        if (this == HOURLY || this == PER_FIRE) {
            String[] names = {"hour", "minute", "second"};
            int[] limits = {23, 59, 59};
            for (int i = 0; i < (this == HOURLY ? 1 : 3); i++) {
                int v = Integer.parseInt(text.substring(11 + 3 * i, 13 + 3 * i));
                if (v > limits[i]) {
                    return "there is no " + names[i] + " " + v;
                }
            }
        }
        return "no such " + id() + " partition";
    }

    /** The form of a key, for messages. */
    public String form() {
        return switch (this) {
            case DAILY -> "YYYY-MM-DD";
            case HOURLY -> "YYYY-MM-DDTHH";
            case MONTHLY -> "YYYY-MM";
            case PER_FIRE -> "YYYY-MM-DDTHH:MM:SSZ";
        };
    }

    /** The kind of a key, judged by its form; empty for {@link Partition#NONE} or another text. */
    public static Optional<PartitionKind> ofKey(String key) {
        if (key.matches("\\d{4}-\\d{2}-\\d{2}")) {
            return Optional.of(DAILY);
        }
        if (key.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}")) {
            return Optional.of(HOURLY);
        }
        if (key.matches("\\d{4}-\\d{2}")) {
            return Optional.of(MONTHLY);
        }
        if (key.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z")) {
            return Optional.of(PER_FIRE);
        }
        return Optional.empty();
    }

    /**
     * The nominal start of {@code p} as an instant, its local key read in {@code zone}; a per-fire
     * key is already an instant.
     */
    public Instant start(Partition p, ZoneId zone) {
        return switch (this) {
            case DAILY -> LocalDate.parse(p.key()).atStartOfDay(zone).toInstant();
            case HOURLY -> LocalDateTime.parse(p.key(), HOUR).toInstant(ZoneOffset.UTC);
            case MONTHLY -> YearMonth.parse(p.key()).atDay(1).atStartOfDay(zone).toInstant();
            case PER_FIRE -> LocalDateTime.parse(p.key(), FIRE).toInstant(ZoneOffset.UTC);
        };
    }

    /** The nominal end (exclusive) of {@code p}; a per-fire partition's interval is its instant (end = start). */
    public Instant end(Partition p, ZoneId zone) {
        return switch (this) {
            case DAILY -> LocalDate.parse(p.key()).plusDays(1).atStartOfDay(zone).toInstant();
            case HOURLY -> LocalDateTime.parse(p.key(), HOUR).plusHours(1).toInstant(ZoneOffset.UTC);
            case MONTHLY -> YearMonth.parse(p.key()).plusMonths(1).atDay(1).atStartOfDay(zone).toInstant();
            case PER_FIRE -> start(p, zone);
        };
    }
}
