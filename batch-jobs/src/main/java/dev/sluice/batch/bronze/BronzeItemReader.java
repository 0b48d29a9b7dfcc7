package dev.sluice.batch.bronze;

import dev.sluice.control.landing.LandedFile;
import dev.sluice.control.landing.LandedFileRepository;
import dev.sluice.engine.BronzeRow;
import dev.sluice.engine.LoadPosition;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.formats.FileDigest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * Reads a partition's landed files of one source for Bronze, skipping file versions already in
 * Bronze (a file loads once per (table, source, sha256)) and resuming a restarted load at the row
 * after the last committed one.
 *
 * <p>The landing path names a file or a directory; a directory's regular, non-hidden files are
 * read in name order. The last row of each file carries the file's {@link LandedFile} so that the
 * writer marks the load complete in the transaction that writes that row.
 *
 * <p>Restart position: a file this attempt (run id) began loading and did not finish resumes after
 * the highest {@code _source_pos} Bronze holds for (partition, source, run id), read by the layer
 * engine ({@link LoadPositions}), which commits with the rows themselves. Positions grow
 * with every row read, so no position of a load is appended twice. The step's execution context
 * ({@code bronze.file}, {@code bronze.pos}, {@code bronze.rows}) is still written, for reports and
 * as a cross-check, but never trusted: Spring Batch stores a restarted step execution killed
 * before its first commit with an empty context, and a restart from that context re-read the file
 * from row 0 (issue #19).
 *
 * <p>For a source partitioned by a column, only rows of this partition are loaded
 * ({@link PartitionFilter}); a row whose partition value is missing is loaded by every partition
 * and quarantined at Silver, so no row is skipped unseen. Not thread-safe: one reader per step
 * execution.
 */
public final class BronzeItemReader implements ItemStreamReader<BronzeRow> {

    private static final Logger LOG = LoggerFactory.getLogger(BronzeItemReader.class);

    static final String FILE_KEY = "bronze.file";
    static final String POS_KEY = "bronze.pos";
    static final String ROWS_KEY = "bronze.rows";
    static final String SHA_KEY = "bronze.sha256";
    static final String SKIPPED_KEY = "bronze.files.unchanged";
    /** Step context key of the step's warnings (empty files), one per line. */
    public static final String WARNINGS_KEY = "bronze.warnings";

    private final String pipeline;
    private final String bronzeTable;
    private final SourceSpec source;
    private final List<ColumnSpec> columns;
    private final Partition partition;
    private final RunId run;
    private final Path home;
    private final LandedFileRepository landed;
    private final LoadPositions positions;
    private final RowHasher hasher = new RowHasher();

    private final Deque<LandedFile> pending = new ArrayDeque<>();
    private @Nullable LandedFile current;
    private @Nullable SourceFileReader reader;
    private @Nullable SourceRow lookahead;
    /** Per file of a restarted load: what Bronze already holds of it. */
    private final Map<String, LoadPosition> resume = new HashMap<>();
    /** Rows of the current file read from it (including those of other partitions). */
    private long consumed;
    /** Rows of the current file consumed up to and including the last row returned. */
    private long consumedReturned;
    /** Rows of the current file returned for Bronze. */
    private long emitted;
    private final PartitionFilter filter;
    private int unchangedFiles;
    private final List<String> warnings = new ArrayList<>();
    private final long maxLineBytes;

    /**
     * @param columns the columns to read: the contract's, then those the Bronze table gained by drift
     * @param positions where a restarted load of this attempt resumes (the layer engine's)
     */
    public BronzeItemReader(String pipeline, String bronzeTable, SourceSpec source, List<ColumnSpec> columns,
            Partition partition, RunId run, Path home, LandedFileRepository landed, LoadPositions positions, long maxLineBytes) {
        this.maxLineBytes = maxLineBytes;
        this.pipeline = pipeline;
        this.bronzeTable = bronzeTable;
        this.source = source;
        this.columns = List.copyOf(columns);
        this.partition = partition;
        this.run = run;
        this.home = home;
        this.landed = landed;
        this.positions = positions;
        this.filter = PartitionFilter.of(source, this.columns, partition);
    }

    @Override
    public void open(ExecutionContext ctx) {
        List<LandedFile> files = list(source.pathFor(partition));
        if (files.isEmpty() && source.partitioned()) {
            throw new BadInputException(display(source.pathFor(partition)), -1, null,
                    "no landed files for partition " + partition + " of source " + source.name() + " (the folder is empty)");
        }
        landed.retireMissing(bronzeTable, partition, files.stream().map(LandedFile::source).toList());
        for (LandedFile f : files) {
            var known = landed.find(bronzeTable, partition, f);
            String status = known.map(r -> r.get(0, String.class)).orElse(null);
            if (LandedFileRepository.LOADED.equals(status)) {
                landed.makeCurrent(bronzeTable, partition, f);
                unchangedFiles++;
                continue;
            }
            refuseAnotherVersionOfThisRun(f);
            boolean ours = known.map(r -> run.toString().equals(r.get(1, String.class))).orElse(false);
            if (ours) {
                resumeFromBronze(f, ctx);
            } else {
                landed.startLoad(pipeline, bronzeTable, partition, f, run);
            }
            pending.add(f);
        }
    }

    /** Refuses {@code f} when this attempt loaded (or began loading) another version of its source. */
    private void refuseAnotherVersionOfThisRun(LandedFile f) {
        landed.otherVersionOfRun(bronzeTable, partition, f, run).ifPresent(other -> {
            String sha = other.get(0, String.class);
            throw new BadInputException(f.source(), -1, null, "the file changed (sha256 " + sha.substring(0, 12)
                    + "… → " + f.sha256().substring(0, 12) + "…) after this attempt had "
                    + (LandedFileRepository.LOADED.equals(other.get(1, String.class)) ? "loaded" : "begun loading")
                    + " it; the rows of both versions would carry the same run id and could not be told apart."
                    + " Start a new attempt with --rerun.");
        });
    }

    /**
     * A restart of this attempt's load of {@code f}: resumes after what Bronze holds of it, whatever
     * the step's execution context says (a restart killed before its first commit leaves it empty);
     * a context that disagrees is logged.
     */
    private void resumeFromBronze(LandedFile f, ExecutionContext ctx) {
        LoadPosition held = positions.committed(DatasetRef.parse(bronzeTable), partition, f.source(), run);
        if (held.rows() > 0) {
            resume.put(f.source(), held);
        }
        boolean sameFile = ctx.containsKey(FILE_KEY) && f.source().equals(ctx.getString(FILE_KEY));
        long contextPos = sameFile && ctx.containsKey(POS_KEY) ? ctx.getLong(POS_KEY) : 0;
        if (contextPos != held.rowsToSkip() && !(contextPos == 0 && held.rows() == 0)) {
            LOG.warn("{}: the step's restart state says {} row(s) of it were consumed, Bronze holds {} row(s) up to row {};"
                    + " resuming after row {}", f.source(), contextPos, held.rows(), held.lastPosition(), held.lastPosition());
        }
    }

    /** The files of a landing path, with their content hashes. */
    List<LandedFile> list(Path path) {
        try {
            if (!Files.exists(path)) {
                throw new BadInputException(display(path), -1, null,
                        "no landed file or directory for partition " + partition + " of source " + source.name());
            }
            List<LandedFile> files = new ArrayList<>();
            for (Path p : LandingFiles.list(path)) {
                files.add(new LandedFile(p, display(p), FileDigest.sha256(p), Files.size(p), -1));
            }
            return files;
        } catch (IOException e) {
            throw new BadInputException(display(path), -1, null, "cannot list or read: " + e.getMessage(), e);
        }
    }

    private String display(Path p) {
        return LandingFiles.display(home, p);
    }

    @Override
    public @Nullable BronzeRow read() {
        while (true) {
            if (reader == null) {
                if (pending.isEmpty()) {
                    return null;
                }
                current = pending.removeFirst();
                if (current.sizeBytes() == 0) {
                    warnings.add(current.source() + " is empty (0 bytes): 0 rows loaded");
                    landed.finishLoad(bronzeTable, partition, current.withRows(0));
                    continue;
                }
                reader = SourceFileReader.open(source, current.path(), columns, current.source(), maxLineBytes);
                LoadPosition held = resume.getOrDefault(current.source(), LoadPosition.NONE);
                consumed = 0;
                for (long i = 0; i < held.rowsToSkip() && reader.next() != null; i++) {
                    consumed++;
                }
                consumedReturned = consumed;
                emitted = held.rows();
                lookahead = nextOfPartition();
                if (lookahead == null) {
                    if (emitted == 0) {
                        warnings.add(current.source() + (consumed == 0 ? " has no rows: 0 rows loaded"
                                : " has no rows for partition " + partition + " (" + consumed + " rows of other partitions): 0 rows loaded"));
                    }
                    reader.close();
                    reader = null;
                    landed.finishLoad(bronzeTable, partition, current.withRows(emitted));
                    continue;
                }
            }
            SourceRow row = lookahead;
            consumedReturned = consumed;
            lookahead = nextOfPartition();
            emitted++;
            LandedFile completes = null;
            if (lookahead == null) {
                completes = current.withRows(emitted);
                consumedReturned = consumed;
                reader.close();
                reader = null;
            }
            String errors = ParseErrors.toJson(row.errors());
            return new BronzeRow(row.values(), current.source(), row.position(), hasher.hash(row.values(), errors),
                    errors, completes);
        }
    }

    /** The next row of the current file that belongs to this partition, or null at its end. */
    private @Nullable SourceRow nextOfPartition() {
        SourceRow r;
        while ((r = reader.next()) != null) {
            consumed++;
            if (filter.accepts(r)) {
                return r;
            }
        }
        return null;
    }

    @Override
    public void update(ExecutionContext ctx) {
        if (current != null) {
            ctx.putString(FILE_KEY, current.source());
            ctx.putString(SHA_KEY, current.sha256());
            ctx.putLong(POS_KEY, consumedReturned);
            ctx.putLong(ROWS_KEY, emitted);
        }
        ctx.putInt(SKIPPED_KEY, unchangedFiles);
        ctx.putString(WARNINGS_KEY, String.join("\n", warnings));
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
