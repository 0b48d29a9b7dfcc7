package dev.sluice.batch.job;

import dev.sluice.batch.gate.GateStep;
import dev.sluice.core.Layer;
import java.util.Optional;

/**
 * What one step of a run did. Row counts are rows; a count that does not apply to the step's layer
 * is 0.
 *
 * @param step the step (the table's qualified name)
 * @param layer the table's layer
 * @param status the step's status as Spring Batch recorded it
 * @param rowsRead Bronze: rows read from landed files in this run (0 when the files were already in Bronze)
 * @param rowsWritten rows written to the table
 * @param inputRows Silver/Gold: rows of the input partition
 * @param quarantined Silver: input rows sent to quarantine
 * @param collapsed Silver: duplicates collapsed, Σ(dup_count − 1)
 * @param elapsedMs wall time of the step, in milliseconds
 * @param earlierExecution true when the step completed in an earlier execution of this attempt
 *     (the run restarted after it)
 * @param unchanged true when a reference snapshot's input had not changed and it was not rewritten
 * @param gate true for a table's quality gate step ({@code gate.<table>}; it reads and writes no rows)
 */
public record StepSummary(String step, Layer layer, StepStatus status, long rowsRead, long rowsWritten,
        long inputRows, long quarantined, long collapsed, long elapsedMs, boolean earlierExecution,
        boolean unchanged, boolean gate) {

    /** For a gate step, the dataset it judges ({@code schema.table}); empty for any other step. */
    public Optional<String> judgedDataset() {
        return gate ? Optional.of(step.substring(GateStep.PREFIX.length())) : Optional.empty();
    }
}
