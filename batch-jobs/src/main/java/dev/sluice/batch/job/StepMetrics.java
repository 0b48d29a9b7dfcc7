package dev.sluice.batch.job;

/** Keys of the row counts each step keeps in its execution context. */
final class StepMetrics {
    static final String INPUT = "sluice.rows.in";
    static final String OUTPUT = "sluice.rows.out";
    static final String QUARANTINED = "sluice.rows.quarantined";
    static final String COLLAPSED = "sluice.rows.collapsed";
    static final String VERSION = "sluice.partition.version";
    static final String UNCHANGED = "sluice.unchanged";
    /** A rollup step that wrote nothing: the key of the wave member whose step rebuilt the rollup partition. */
    static final String DEFERRED_TO = "sluice.deferred.to";
    /** What a Silver/Gold table's step writes of the above: a restarted step drops what its failed execution left. */
    static final java.util.List<String> TRANSFORM = java.util.List.of(INPUT, OUTPUT, QUARANTINED, COLLAPSED, VERSION, UNCHANGED, DEFERRED_TO);
    static final String GATE_WARNINGS = "sluice.gate.warnings";
    static final String GATE_CHECKS = "sluice.gate.checks";
    static final String GATE_ELAPSED_MS = "sluice.gate.elapsed.ms";

    private StepMetrics() {
    }
}
