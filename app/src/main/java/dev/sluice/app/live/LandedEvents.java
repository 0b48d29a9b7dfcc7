package dev.sluice.app.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.batch.bronze.LandingFiles;
import dev.sluice.batch.bronze.SourceFileReader;
import dev.sluice.batch.bronze.SourceRow;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/**
 * The events of a source's landed rows, as {@code sluice produce} publishes them: one per row, in
 * event-time order, or out of order within a bound. Either one landed partition ({@link #of}) or
 * every landed row of a source whose files are not split by partition ({@link #all}: a feed file
 * with a partition column, or an unpartitioned file).
 * <ul>
 *   <li>value: the row as a JSON object of the contract's columns (timestamps ISO-8601);</li>
 *   <li>key (event id): the SHA-256 of the value and the row's occurrence index among identical
 *       rows ({@code <hash>-0}, {@code <hash>-1}, …): stable across runs, and exact duplicates stay
 *       distinct events;</li>
 *   <li>event time: the event-time column read as UTC;</li>
 *   <li>shuffled within S: each event is sent at its event time plus a random delay in [0, S)
 *       (seeded), so no event comes after one more than S younger: out of order, never more than S.</li>
 * </ul>
 * Rows that break the contract are left out (they are the batch path's to quarantine), counted, and
 * the first named ({@link Result#firstSkipped()}). Stateless.
 */
public final class LandedEvents {

    private static final ObjectMapper JSON = new ObjectMapper();

    private LandedEvents() {
    }

    /** An event to publish. */
    public record Event(String id, byte[] value, long eventTimeMs) {
    }

    /**
     * The events in sending order, and the rows left out for breaking the contract.
     *
     * @param firstSkipped where the first left-out row is and why (file, row, column, reason), or null
     */
    public record Result(List<Event> events, long skipped, @Nullable String firstSkipped) {
    }

    /**
     * Reads {@code partition} of {@code source}: the files of its landing path, and of a source with
     * a partition column only the rows whose event time falls on that UTC day.
     *
     * @param eventTime the timestamp column that is the event time
     * @param shuffleWithin the bound of disorder (zero: event-time order)
     * @param seed the seed of the shuffle
     * @param home the Sluice home: files are named relative to it
     * @param maxLineBytes a text line longer than this is a row breaking the contract
     * @throws BadInputException when {@code eventTime} is not a contract column, the partition has no
     *     landed files, or a file cannot be read
     */
    public static Result of(SourceSpec source, Partition partition, String eventTime, Duration shuffleWithin, long seed, Path home,
            long maxLineBytes) {
        Path dir = source.pathFor(partition);
        String day = source.partitionColumnName().isPresent() ? partition.key() : null;
        return read(source, dir, day, "partition " + partition, eventTime, shuffleWithin, seed, home, maxLineBytes);
    }

    /**
     * Reads every landed row of {@code source}, whatever its day: the whole feed file of a source
     * with a partition column, or the file of an unpartitioned source.
     *
     * @throws BadInputException when the source lands one directory per partition (its path holds
     *     {@code {partition}}: publish those one partition at a time with {@link #of}), when
     *     {@code eventTime} is not a contract column, nothing is landed, or a file cannot be read
     */
    public static Result all(SourceSpec source, String eventTime, Duration shuffleWithin, long seed, Path home, long maxLineBytes) {
        if (source.pathTemplate().contains(SourceSpec.PARTITION_PLACEHOLDER)) {
            throw new BadInputException(source.pathTemplate(), -1, null, "source " + source.name()
                    + " lands one directory per partition: publish one partition at a time (--partition D)");
        }
        return read(source, Path.of(source.pathTemplate()), null, "source " + source.name(), eventTime, shuffleWithin, seed, home,
                maxLineBytes);
    }

    /** The events of the files under {@code landing}; with {@code day} (yyyy-MM-dd) only the rows of that UTC day. */
    private static Result read(SourceSpec source, Path landing, @Nullable String day, String what, String eventTime, Duration shuffleWithin,
            long seed, Path home, long maxLineBytes) {
        List<ColumnSpec> columns = source.contract().columns();
        int timeIndex = columns.stream().map(ColumnSpec::name).toList().indexOf(eventTime);
        if (timeIndex < 0) {
            throw new BadInputException(source.contract().file().toString(), -1, eventTime, "not a column of the contract");
        }
        List<Path> files;
        try {
            files = LandingFiles.list(landing);
        } catch (IOException e) {
            throw new BadInputException(landing.toString(), -1, null, "cannot list the landed files: " + e.getMessage());
        }
        if (files.isEmpty()) {
            throw new BadInputException(landing.toString(), -1, null, "no landed files for " + what + " of source " + source.name());
        }
        Random random = new Random(seed);
        Map<String, Integer> seen = new HashMap<>();
        List<long[]> order = new ArrayList<>();
        List<Event> events = new ArrayList<>();
        long skipped = 0;
        String firstSkipped = null;
        for (Path f : files) {
            String name = LandingFiles.display(home, f);
            try (SourceFileReader reader = SourceFileReader.open(source, f, columns, name, maxLineBytes)) {
                for (SourceRow row; (row = reader.next()) != null; ) {
                    Object at = row.values()[timeIndex];
                    if (!row.errors().isEmpty() || !(at instanceof LocalDateTime time)) {
                        if (skipped++ == 0) {
                            firstSkipped = name + " row " + row.position() + ": " + (row.errors().isEmpty() ? eventTime + ": no event time"
                                    : row.errors().get(0).column() + " = " + row.errors().get(0).value() + ": " + row.errors().get(0).reason());
                        }
                        continue;
                    }
                    if (day != null && !time.toLocalDate().toString().equals(day)) {
                        continue; // a file holding several days: this partition's rows only
                    }
                    byte[] value = json(columns, row.values());
                    String hash = sha256(value);
                    int occurrence = seen.merge(hash, 1, Integer::sum) - 1;
                    long ms = time.toInstant(ZoneOffset.UTC).toEpochMilli();
                    long delay = shuffleWithin.isZero() ? 0 : (long) (random.nextDouble() * shuffleWithin.toMillis());
                    order.add(new long[] {ms + delay, events.size()});
                    events.add(new Event(hash + "-" + occurrence, value, ms));
                }
            }
        }
        order.sort(Comparator.<long[]>comparingLong(o -> o[0]).thenComparingLong(o -> o[1]));
        List<Event> sent = new ArrayList<>(events.size());
        order.forEach(o -> sent.add(events.get((int) o[1])));
        return new Result(sent, skipped, firstSkipped);
    }

    /** The row as a JSON object of the contract's columns, in contract order (UTF-8). */
    private static byte[] json(List<ColumnSpec> columns, @Nullable Object[] values) {
        ObjectNode n = JSON.createObjectNode();
        for (int i = 0; i < columns.size(); i++) {
            Object v = values[i];
            if (v == null) {
                n.putNull(columns.get(i).name());
            } else if (v instanceof Number || v instanceof Boolean) {
                n.set(columns.get(i).name(), JSON.valueToTree(v));
            } else {
                n.put(columns.get(i).name(), v.toString());
            }
        }
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String sha256(byte[] value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
