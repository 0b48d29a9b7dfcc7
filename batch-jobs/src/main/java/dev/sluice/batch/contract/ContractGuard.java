package dev.sluice.batch.contract;

import dev.sluice.control.drift.SchemaDriftRepository;

import dev.sluice.batch.bronze.LandingFiles;
import dev.sluice.engine.LayerEngine;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SchemaChange;
import dev.sluice.config.SchemaDiff;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks every landed file of a partition against its source's contract before the job writes
 * anything ({@link SchemaDiff} decides each change), records the changes in
 * {@code sluice.schema_drift}, and adds the columns {@code drift: evolve} accepts to the Bronze
 * tables. A refused change throws before any Bronze row is written. Thread-safe.
 */
public final class ContractGuard {

    private static final Logger LOG = LoggerFactory.getLogger(ContractGuard.class);
    /** Changes of one file logged one by one; the rest are counted in one line. */
    static final int MAX_LOGGED_CHANGES = 20;

    private final DSLContext dsl;
    private final SchemaDriftRepository drift;
    private final Path home;

    public ContractGuard(DSLContext dsl, Path home) {
        this.dsl = dsl;
        this.drift = new SchemaDriftRepository(dsl);
        this.home = home;
    }

    /**
     * Checks the partition's files of every source of {@code spec}.
     *
     * @throws ContractViolationException for the first refused change (all files are checked and
     *     every change recorded first)
     */
    public void check(PipelineSpec spec, Partition partition, LayerEngine engine) {
        record Judged(SourceSpec source, Partition partition, String file, List<SchemaChange> changes) {
        }
        List<Judged> judged = new ArrayList<>();
        ContractViolationException refused = null;
        for (SourceSpec source : spec.sources()) {
            Partition p = source.partitioned() ? partition : Partition.NONE;
            // later files are judged against the contract plus the columns earlier files evolved
            ContractSpec contract = new ContractSpec(source.contract().file(), source.contract().name(),
                    source.contract().version(), bronzeColumns(spec, source), source.contract().drift());
            for (Path file : files(source.pathFor(p))) {
                if (file.toFile().length() == 0) {
                    continue; // an empty file has no schema; Bronze loads it as 0 rows with a warning
                }
                String name = display(file);
                List<SchemaChange> changes = SchemaDiff.of(contract, FileSchemas.read(source, file, name));
                if (changes.isEmpty()) {
                    continue;
                }
                judged.add(new Judged(source, p, name, changes));
                var refusal = SchemaDiff.refusal(changes);
                if (refusal.isPresent() && refused == null) {
                    refused = new ContractViolationException(name, source.contract().label(), refusal.get());
                }
            }
        }
        for (Judged j : judged) {
            // nothing evolves in a refused partition: record what would have evolved as refused
            List<SchemaChange> recorded = refused == null ? j.changes() : j.changes().stream()
                    .map(c -> c.outcome() == SchemaChange.Outcome.EVOLVED ? c.withOutcome(SchemaChange.Outcome.REFUSED) : c)
                    .toList();
            recorded.stream().limit(MAX_LOGGED_CHANGES)
                    .forEach(c -> LOG.warn("{} against {}: {}", j.file(), j.source().contract().label(), c.describe()));
            if (recorded.size() > MAX_LOGGED_CHANGES) {
                LOG.warn("{} against {}: {} more changes", j.file(), j.source().contract().label(), recorded.size() - MAX_LOGGED_CHANGES);
            }
            if (refused == null) {
                for (SchemaChange c : recorded) {
                    if (c.outcome() == SchemaChange.Outcome.EVOLVED) {
                        evolve(spec, j.source(), c, engine);
                    }
                }
            }
            int unrecorded = drift.record(spec.name(), j.source(), j.partition(), j.file(), recorded);
            if (unrecorded > 0) {
                LOG.warn("{}: {} of its {} changes are not recorded in " + SchemaDriftRepository.TABLE_NAME + " (at most {} per file)", j.file(),
                        unrecorded, recorded.size(), SchemaDriftRepository.MAX_RECORDED_CHANGES);
            }
        }
        if (refused != null) {
            throw refused;
        }
    }

    /** The columns Bronze reads for {@code source}: the contract's, then those gained by evolution. */
    public List<ColumnSpec> bronzeColumns(PipelineSpec spec, SourceSpec source) {
        List<ColumnSpec> columns = new ArrayList<>(source.contract().columns());
        columns.addAll(drift.evolvedColumns(spec.name(), source));
        return columns;
    }

    private void evolve(PipelineSpec spec, SourceSpec source, SchemaChange change, LayerEngine engine) {
        for (TableSpec t : spec.tables(Layer.BRONZE)) {
            if (source.name().equals(t.source())) {
                ColumnSpec column = SchemaDriftRepository.evolvedColumn(change.column(), change.foundId());
                engine.addBronzeColumn(t, column);
                LOG.info("{} gained column {} ({}) by drift: evolve", t.table(), column.name(), column.typeId());
            }
        }
    }

    private static List<Path> files(Path path) {
        try {
            return LandingFiles.list(path);
        } catch (IOException e) {
            return List.of();
        }
    }

    private String display(Path p) {
        return LandingFiles.display(home, p);
    }
}
