package dev.sluice.batch.backfill;

import dev.sluice.control.backfill.BackfillRepository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.control.run.RunRepository;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import java.time.LocalDate;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * A backfill records the host and pid of the process of its latest invocation, so that one left
 * RUNNING by a process killed between two partitions (no attempt of it left STARTED to tell) is
 * known as killed: its process is gone. Not for this JVM, a live process, another host, or a
 * finished backfill. A real process that has exited stands for the killed one.
 */
class BackfillOwnerIT {

    @Test
    void aRunningBackfillWhoseProcessIsGoneIsKnownAsKilled() throws Exception {
        try (Warehouse w = Warehouse.open(new WarehouseSpec(TestHome.freshH2Url(), "sa", ""))) {
            BackfillRepository backfills = new BackfillRepository(w.dsl());
            RunId id = RunId.newId();
            backfills.start(id, "flights", LocalDate.parse("2001-01-01"), LocalDate.parse("2001-01-31"), false, "hash", "ops", null);
            var owner = w.dsl().select(DSL.field(DSL.name("host"), String.class), DSL.field(DSL.name("pid"), Long.class))
                    .from(BackfillRepository.BACKFILLS).fetchOne();
            assertThat(owner.value1()).isEqualTo(RunRepository.thisHost());
            assertThat(owner.value2()).isEqualTo(ProcessHandle.current().pid());
            assertThat(backfills.processGone(id)).as("this process runs it").isFalse();

            Process exited = new ProcessBuilder("true").start();
            assertThat(exited.waitFor()).isZero();
            setPid(w, exited.pid());
            assertThat(backfills.processGone(id)).as("killed between partitions").isTrue();

            w.dsl().update(BackfillRepository.BACKFILLS).set(DSL.field(DSL.name("host"), String.class), "another-host").execute();
            assertThat(backfills.processGone(id)).as("another host's process is never judged").isFalse();

            backfills.resume(id, "hash");
            assertThat(backfills.processGone(id)).as("resumed by this process").isFalse();
            assertThat(w.dsl().select(DSL.field(DSL.name("invocations"), Integer.class)).from(BackfillRepository.BACKFILLS).fetchOne().value1())
                    .isEqualTo(2);
            setPid(w, exited.pid());
            backfills.finish(id, dev.sluice.control.run.RunStatus.FAILED);
            assertThat(backfills.processGone(id)).as("a finished backfill is not running").isFalse();
            assertThat(backfills.processGone(RunId.newId())).isFalse();
        }
    }

    private static void setPid(Warehouse w, long pid) {
        w.dsl().update(BackfillRepository.BACKFILLS).set(DSL.field(DSL.name("pid"), Long.class), pid).execute();
    }
}
