package dev.sluice.engine;

/**
 * One partition's version of a Silver/Gold table, written by a wave's one job
 * ({@link LayerEngine#stageWave}) where readers do not see it, not yet recorded: its partition's
 * job records it in its own step's transaction.
 */
@FunctionalInterface
public interface StagedWrite {

    /**
     * Records the staged version as {@link LayerEngine#write} would after writing it: its
     * quarantined rows, the version, and for a table without checks its publication. Called once,
     * in the step's transaction.
     *
     * @return rows read, written, quarantined and collapsed, and the version
     * @throws dev.sluice.core.SluiceException what writing this partition failed with (its rows
     *     break the table's key: nothing of it was staged), as {@link LayerEngine#write} throws it
     */
    TransformResult record();
}
