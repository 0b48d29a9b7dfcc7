package dev.sluice.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A tally sums its open emitters live and keeps the final counts of the closed ones, once each. */
class LineageTallyTest {

    /** An emitter whose statistics the test sets. */
    private static final class Fixed implements LineageEmitter {
        volatile Stats stats;
        int closes;

        Fixed(Stats stats) {
            this.stats = stats;
        }

        @Override
        public void emit(RunEvent event) {
        }

        @Override
        public Stats stats() {
            return stats;
        }

        @Override
        public void close() {
            closes++;
        }
    }

    @Test
    void openEmittersCountLiveAndClosedOnesKeepTheirFinalCounts() {
        LineageTally tally = new LineageTally();
        assertThat(tally.stats()).isEqualTo(LineageEmitter.Stats.NONE);
        Fixed a = new Fixed(new LineageEmitter.Stats(3, 10, 2, 1));
        Fixed b = new Fixed(new LineageEmitter.Stats(1, 4, 0, 0));
        LineageEmitter ta = tally.track(a);
        LineageEmitter tb = tally.track(b);
        assertThat(tally.stats()).isEqualTo(new LineageEmitter.Stats(4, 14, 2, 1));
        a.stats = new LineageEmitter.Stats(0, 13, 2, 1); // drained while closing
        ta.close();
        ta.close();
        assertThat(a.closes).isEqualTo(2);
        assertThat(tally.stats()).as("a counted once, b still live").isEqualTo(new LineageEmitter.Stats(1, 17, 2, 1));
        b.stats = new LineageEmitter.Stats(1, 5, 0, 0); // one left behind at close: not queued any more
        tb.close();
        assertThat(tally.stats()).isEqualTo(new LineageEmitter.Stats(0, 18, 2, 1));
        assertThat(tally.track(LineageEmitter.NOOP).stats()).isEqualTo(LineageEmitter.Stats.NONE);
    }
}
