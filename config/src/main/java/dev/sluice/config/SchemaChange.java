package dev.sluice.config;

import org.jspecify.annotations.Nullable;

/**
 * One difference between a landed file's columns and its contract, with what the load does about it.
 *
 * @param kind what changed
 * @param column the column's name
 * @param expected the contract's type (null for an added column)
 * @param found the file's type (null for a missing column, or a file format without types such as CSV)
 * @param outcome what the load does
 */
public record SchemaChange(Kind kind, String column, @Nullable ColumnType expected, @Nullable ColumnType found,
        Outcome outcome) {

    /** Kinds of change. */
    public enum Kind {
        /** The file has a column the contract does not. */
        ADDED,
        /** The file lacks a contract column. */
        MISSING,
        /** The file's type converts to the contract's without loss (int → long, float → double). */
        WIDENED,
        /** The file's type is wider than the contract's, or a different type altogether. */
        RETYPED
    }

    /** What the load does about a change. */
    public enum Outcome {
        /** Loaded as the contract says (a widened type, a missing nullable column as NULL). */
        ACCEPTED,
        /** Reported, not loaded (an added column under {@code drift: ignore}). */
        IGNORED,
        /** The Bronze table gains the column (an added column under {@code drift: evolve}). */
        EVOLVED,
        /** The partition is refused before anything is written. */
        REFUSED
    }

    /** One line for people: {@code ADDED column 'gate' (string): EVOLVED}. */
    public String describe() {
        String types = switch (kind) {
            case ADDED -> found == null ? "" : " (" + found.id() + ")";
            case MISSING -> expected == null ? "" : " (" + expected.id() + (outcome == Outcome.REFUSED ? ", required" : ", nullable") + ")";
            case WIDENED, RETYPED -> " (" + (found == null ? "a type Sluice cannot read" : found.id()) + " in the file, "
                    + (expected == null ? "?" : expected.id()) + " in the contract)";
        };
        return kind + " column '" + column + "'" + types + ": " + outcome;
    }
}
