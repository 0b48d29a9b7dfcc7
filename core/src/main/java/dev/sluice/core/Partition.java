package dev.sluice.core;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One unit of work of a pipeline: a business date for a daily partitioned pipeline (or an hour, a
 * month, a scheduled fire: {@link PartitionKind}), or {@link #NONE} for a reference snapshot that
 * is not partitioned.
 *
 * <p>The key is the text form stored in every {@code _partition} and {@code partition_key} column:
 * {@code YYYY-MM-DD} for a daily partition, {@code none} for the snapshot. Immutable and
 * thread-safe.
 *
 * @param key the partition key as text, never blank
 */
public record Partition(String key) implements Comparable<Partition> {

    /** The partition of a dataset that is not partitioned (a reference snapshot). */
    public static final Partition NONE = new Partition("none");

    public Partition {
        Objects.requireNonNull(key, "key");
        if (key.isBlank()) {
            throw new IllegalArgumentException("partition key is blank");
        }
    }

    /** The daily partition of {@code date}. */
    public static Partition daily(LocalDate date) {
        return new Partition(date.toString());
    }

    /**
     * Parses a daily partition key.
     *
     * @throws SluiceException when {@code text} is not an ISO date ({@code YYYY-MM-DD}), saying
     *     whether its form is wrong or the day does not exist ({@link PartitionKind#parse})
     */
    public static Partition parseDaily(String text) {
        return PartitionKind.DAILY.parse(text);
    }

    /**
     * Parses a key of any kind ({@link PartitionKind}: a day, an hour, a month, a fire instant) or
     * {@code none}.
     *
     * @throws SluiceException naming the forms when {@code text} is none of them
     */
    public static Partition parseAny(String text) {
        if (text.equals(NONE.key())) {
            return NONE;
        }
        return PartitionKind.ofKey(text).map(k -> k.parse(text)).orElseThrow(() -> new SluiceException("partition '" + text
                + "' is not a day (YYYY-MM-DD), an hour (YYYY-MM-DDTHH), a month (YYYY-MM), a fire instant (YYYY-MM-DDTHH:MM:SSZ) or none"));
    }

    /** The business date of a daily partition. */
    public LocalDate date() {
        return LocalDate.parse(key);
    }

    /** The kind of this key, judged by its form; empty for {@link #NONE}. */
    public Optional<PartitionKind> kind() {
        return PartitionKind.ofKey(key);
    }

    /**
     * The nominal start of this partition in UTC (local keys read as UTC), or null for
     * {@link #NONE} and keys of no kind.
     */
    public java.time.@Nullable LocalDateTime nominalStart() {
        return kind().map(k -> LocalDateTime.ofInstant(k.start(this, ZoneOffset.UTC), ZoneOffset.UTC))
                .orElse(null);
    }

    /** The nominal end (exclusive) in UTC, or null as {@link #nominalStart()}. */
    public java.time.@Nullable LocalDateTime nominalEnd() {
        return kind().map(k -> LocalDateTime.ofInstant(k.end(this, ZoneOffset.UTC), ZoneOffset.UTC))
                .orElse(null);
    }

    @Override
    public int compareTo(Partition other) {
        return key.compareTo(other.key);
    }

    @Override
    public String toString() {
        return key;
    }
}
