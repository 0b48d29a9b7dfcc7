package dev.sluice.control.version;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;

/**
 * Which partitions of its input a Silver/Gold table's run reads, whatever engine holds them: its
 * own partition, {@link Partition#NONE} for an input that is a reference snapshot, or for a rollup
 * every input partition inside the rollup partition holding the run's. Stateless.
 */
public final class InputPartitions {

    private InputPartitions() {
    }

    /**
     * @param table a Silver/Gold table of {@code spec}
     * @param input its input table
     * @param partition the job's partition
     * @return the first and last input partition read (equal unless {@code table} is a rollup)
     */
    public static Partition[] of(PipelineSpec spec, TableSpec table, TableSpec input, Partition partition) {
        if (table.isRollup()) {
            return TableSpec.inputRange(table.outputPartition(partition), spec.partitionKind());
        }
        Partition in = input.partitioned() ? partition : Partition.NONE;
        return new Partition[] {in, in};
    }
}
