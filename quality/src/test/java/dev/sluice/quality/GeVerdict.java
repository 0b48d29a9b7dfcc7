package dev.sluice.quality;

/**
 * What the conformance harness made of one Great Expectations case: judged (passed, failed, or a
 * named known difference) or skipped, always with its reason.
 *
 * @param kind the outcome
 * @param category the reason in a few words, the same for cases skipped (or differing) for one
 *     cause, for the summary's counts (e.g. {@code not for spark (suppress_test_for)}); empty for a pass
 * @param detail what was compared or why it was not, for the case's own line
 */
record GeVerdict(Kind kind, String category, String detail) {

    enum Kind {
        /** Every key of the case's {@code out} was compared and agreed. */
        PASSED,
        /** A compared key disagreed, or the gate failed where GE answers. */
        FAILED,
        /** A named, reasoned difference of Sluice from GE ({@link GeKnownDifferences}); it still differs. */
        KNOWN_DIFFERENCE,
        /** Not judged (or not judged whole), for the reason given. */
        SKIPPED
    }

    static GeVerdict passed(String detail) {
        return new GeVerdict(Kind.PASSED, "", detail);
    }

    static GeVerdict failed(String detail) {
        return new GeVerdict(Kind.FAILED, "disagrees with GE", detail);
    }

    /** The gate threw where it should have answered or refused the check: never excused as a known difference. */
    static GeVerdict crashed(String detail) {
        return new GeVerdict(Kind.FAILED, CRASHED, detail);
    }

    static final String CRASHED = "the gate crashed";

    static GeVerdict skipped(String category, String detail) {
        return new GeVerdict(Kind.SKIPPED, category, detail);
    }

    /** True for an outcome that compared Sluice's answer with GE's (all but {@link Kind#SKIPPED}). */
    boolean judged() {
        return kind != Kind.SKIPPED;
    }
}
