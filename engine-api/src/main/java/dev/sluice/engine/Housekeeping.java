package dev.sluice.engine;

import dev.sluice.config.TableSpec;
import java.time.Instant;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * What the audited erase and the purge ask of a layer engine. Part of {@link LayerEngine}; its guarantees, threading
 * and errors are those stated there.
 */
public interface Housekeeping {

    /**
     * Deletes the data of a superseded Silver/Gold version (its rows, or its branch), or counts it.
     * The caller deletes the version's control-plane record in the same transaction.
     *
     * @param tx the purge's transaction (the warehouse engine deletes in it; an engine whose
     *     storage commits on its own commits before returning)
     * @param partition the table's partition key
     * @param dryRun count only
     * @return rows (warehouse engine) or branches (lakehouse engine) removed, or that would be
     */
    long purgeVersion(DSLContext tx, TableSpec table, String partition, int version, boolean dryRun);

    /**
     * Deletes the rows of one superseded Bronze load ({@code _partition}, {@code _source},
     * {@code _run_id}), or counts them.
     *
     * @param tx the purge's transaction, as for {@link #purgeVersion}
     * @param dryRun count only
     * @return rows removed, or that would be
     */
    long purgeBronzeLoad(DSLContext tx, TableSpec bronze, String partition, String source, String run, boolean dryRun);

    /**
     * What the storage itself keeps beyond the rows: for an engine of files in a table format,
     * snapshots older than {@code cutoff} and files no snapshot references that were last modified
     * before {@code orphansBefore}; nothing for an engine of database tables.
     *
     * @param dryRun count only
     * @return what was removed (or would be), by a label such as {@code lakehouse snapshots}, in order;
     *     empty when the engine keeps nothing of the kind
     */
    Map<String, Long> purgeStorage(Instant cutoff, Instant orphansBefore, boolean dryRun);

    /**
     * Redacts an erasure request's raw value in one Bronze table: rows whose column holds the value
     * get the marker (a string column) or NULL, and {@code _parse_errors} holding it is redacted.
     * Afterwards no data the engine keeps for the table holds the value: the warehouse engine
     * updates the rows in the caller's transaction; the lakehouse engine rewrites the data files
     * holding it and expires every earlier snapshot, whose files still hold it (committed before
     * the method returns).
     *
     * @param bronze a Bronze table of the pipeline whose source contract has the column
     * @param partitions receives the partitions whose rows held the value
     * @return rows redacted (0 when the table was never created)
     */
    long redactBronze(TableSpec bronze, BronzeRedaction redaction, java.util.Set<String> partitions);

}
