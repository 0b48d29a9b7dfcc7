package dev.sluice.config;

import dev.sluice.core.BoundedText;
import org.jspecify.annotations.Nullable;

/**
 * One difference between a landed file's columns and its contract, with what the load does about it.
 *
 * @param kind what changed
 * @param column the column's name
 * @param expected the contract's type (null for an added column)
 * @param found the file's type (null for a missing column, or a file format without types such as CSV)
 * @param outcome what the load does
 * @param expectedDecimal the contract's precision and scale when {@code expected} is decimal, else null
 * @param foundDecimal the file's precision and scale when {@code found} is decimal, else null
 */
public record SchemaChange(Kind kind, String column, @Nullable ColumnType expected, @Nullable ColumnType found,
        Outcome outcome, @Nullable DecimalSpec expectedDecimal, @Nullable DecimalSpec foundDecimal) {

    /** A change of types without decimal shapes. */
    public SchemaChange(Kind kind, String column, @Nullable ColumnType expected, @Nullable ColumnType found, Outcome outcome) {
        this(kind, column, expected, found, outcome, null, null);
    }

    /** The same change with another outcome. */
    public SchemaChange withOutcome(Outcome other) {
        return new SchemaChange(kind, column, expected, found, other, expectedDecimal, foundDecimal);
    }

    /** The contract's type as the spec spells it ({@code decimal(12,2)}, {@code long}), or null. */
    public @Nullable String expectedId() {
        return expectedDecimal != null ? expectedDecimal.id() : expected == null ? null : expected.id();
    }

    /** The file's type as the spec spells it, or null. */
    public @Nullable String foundId() {
        return foundDecimal != null ? foundDecimal.id() : found == null ? null : found.id();
    }

    /** Kinds of change. */
    public enum Kind {
        /** The file has a column the contract does not. */
        ADDED,
        /** The file lacks a contract column. */
        MISSING,
        /** The file's type converts to the contract's without loss (int → long, float → double). */
        WIDENED,
        /** The file's type is wider than the contract's, or a different type altogether. */
        RETYPED,
        /**
         * The file's decimal (or integer) type can hold values the contract's decimal cannot (more
         * digits before or after the point): loaded, each value judged as it is read; one that
         * does not fit is a field error (the row is quarantined), never rounded.
         */
        NARROWED
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

    /**
     * One line for people: {@code ADDED column 'gate' (string): EVOLVED}. The column name comes
     * from the file and is cut to {@value #MAX_NAME_CHARS} characters.
     */
    public String describe() {
        String types = switch (kind) {
            case ADDED -> found == null ? "" : " (" + foundId() + ")";
            case MISSING -> expected == null ? "" : " (" + expectedId() + (outcome == Outcome.REFUSED ? ", required" : ", nullable") + ")";
            case WIDENED, RETYPED, NARROWED -> " (" + (found == null ? "a type Sluice cannot read" : foundId()) + " in the file, "
                    + (expected == null ? "?" : expectedId()) + " in the contract"
                    + (kind == Kind.NARROWED ? "; each value must fit" : "") + ")";
        };
        return kind + " column '" + BoundedText.cut(column, MAX_NAME_CHARS) + "'" + types + ": " + outcome;
    }

    /** Characters of a column name a description shows. */
    public static final int MAX_NAME_CHARS = 120;
}
