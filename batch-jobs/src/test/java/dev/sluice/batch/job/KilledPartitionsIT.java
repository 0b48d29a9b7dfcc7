package dev.sluice.batch.job;

import dev.sluice.control.run.RunRepository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice status} lists killed partitions beside failed and stopped ones: a partition whose
 * newest attempt is STARTED with its process gone (a real process that has exited stands for the
 * killed one); not one running in this process, not one whose newer attempt completed.
 */
class KilledPartitionsIT {

    @Test
    void aStartedAttemptWhoseProcessIsGoneIsAKilledPartition() throws Exception {
        try (Warehouse w = Warehouse.open(new WarehouseSpec(TestHome.freshH2Url(), "sa", ""))) {
            RunRepository runs = new RunRepository(w.dsl());
            Process exited = new ProcessBuilder("true").start();
            assertThat(exited.waitFor()).isZero();
            RunId killed = RunId.newId();
            runs.start(killed, "flights", new Partition("2001-01-09"), 0, "h", "ops", null);
            RunId running = RunId.newId();
            runs.start(running, "flights", new Partition("2001-01-10"), 0, "h", "ops", null);
            RunId killedThenRerun = RunId.newId();
            runs.start(killedThenRerun, "flights", new Partition("2001-01-11"), 0, "h", "ops", null);
            RunId rerun = RunId.newId();
            runs.start(rerun, "flights", new Partition("2001-01-11"), 1, "h", "ops", null);
            RunId otherPipeline = RunId.newId();
            runs.start(otherPipeline, "earthquakes", new Partition("2001-01-09"), 0, "h", "ops", null);
            for (RunId dead : new RunId[] {killed, killedThenRerun, otherPipeline}) {
                w.dsl().update(RunRepository.TABLE).set(DSL.field(DSL.name("pid"), Long.class), exited.pid())
                        .where(DSL.field(DSL.name("run_id")).eq(dead.toString())).execute();
            }
            assertThat(runs.killedPartitions("flights")).containsExactly("2001-01-09");
            assertThat(runs.killedPartitions("earthquakes")).containsExactly("2001-01-09");
            w.dsl().update(RunRepository.TABLE).set(DSL.field(DSL.name("host"), String.class), "another-host").execute();
            assertThat(runs.killedPartitions("flights")).as("another host's attempts are never judged").isEmpty();
        }
    }
}
