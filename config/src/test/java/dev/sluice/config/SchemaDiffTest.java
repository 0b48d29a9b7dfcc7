package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sluice.config.SchemaChange.Kind;
import dev.sluice.config.SchemaChange.Outcome;
import dev.sluice.config.SchemaDiff.FileColumn;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaDiffTest {

    private static ContractSpec contract(DriftPolicy drift) {
        return new ContractSpec(Path.of("c.v1.yaml"), "c", 1, List.of(
                new ColumnSpec("id", ColumnType.LONG, false),
                new ColumnSpec("score", ColumnType.DOUBLE, true),
                new ColumnSpec("note", ColumnType.STRING, true)), drift);
    }

    @Test
    void reorderedColumnsAreNoChange() {
        assertThat(SchemaDiff.of(contract(DriftPolicy.FAIL), List.of(new FileColumn("note", ColumnType.STRING),
                new FileColumn("score", ColumnType.DOUBLE), new FileColumn("id", ColumnType.LONG)))).isEmpty();
    }

    @Test
    void anAddedColumnFollowsThePolicy() {
        List<FileColumn> file = List.of(new FileColumn("id", null), new FileColumn("score", null),
                new FileColumn("note", null), new FileColumn("gate", null));
        assertThat(SchemaDiff.of(contract(DriftPolicy.FAIL), file)).extracting(SchemaChange::kind, SchemaChange::outcome)
                .containsExactly(tuple(Kind.ADDED, Outcome.REFUSED));
        assertThat(SchemaDiff.of(contract(DriftPolicy.IGNORE), file)).extracting(SchemaChange::outcome).containsExactly(Outcome.IGNORED);
        assertThat(SchemaDiff.of(contract(DriftPolicy.EVOLVE), file)).extracting(SchemaChange::outcome).containsExactly(Outcome.EVOLVED);
    }

    @Test
    void aMissingColumnIsRefusedOnlyWhenRequired() {
        assertThat(SchemaDiff.of(contract(DriftPolicy.FAIL), List.of(new FileColumn("score", null), new FileColumn("note", null))))
                .extracting(SchemaChange::kind, SchemaChange::column, SchemaChange::outcome)
                .containsExactly(tuple(Kind.MISSING, "id", Outcome.REFUSED));
        assertThat(SchemaDiff.of(contract(DriftPolicy.FAIL), List.of(new FileColumn("id", null), new FileColumn("score", null))))
                .extracting(SchemaChange::kind, SchemaChange::column, SchemaChange::outcome)
                .containsExactly(tuple(Kind.MISSING, "note", Outcome.ACCEPTED));
    }

    @Test
    void onlyWideningTypeChangesAreAccepted() {
        List<SchemaChange> changes = SchemaDiff.of(contract(DriftPolicy.FAIL), List.of(new FileColumn("id", ColumnType.INT),
                new FileColumn("score", ColumnType.FLOAT), new FileColumn("note", ColumnType.LONG)));
        assertThat(changes).extracting(SchemaChange::kind, SchemaChange::column, SchemaChange::outcome).containsExactly(
                tuple(Kind.WIDENED, "id", Outcome.ACCEPTED), tuple(Kind.WIDENED, "score", Outcome.ACCEPTED),
                tuple(Kind.RETYPED, "note", Outcome.REFUSED));
        assertThat(SchemaDiff.of(new ContractSpec(Path.of("c"), "c", 1, List.of(new ColumnSpec("n", ColumnType.INT, true)),
                DriftPolicy.FAIL), List.of(new FileColumn("n", ColumnType.LONG))))
                .extracting(SchemaChange::kind, SchemaChange::outcome).containsExactly(tuple(Kind.RETYPED, Outcome.REFUSED));
        assertThat(changes.get(2).describe()).isEqualTo("RETYPED column 'note' (long in the file, string in the contract): REFUSED");
    }

    @Test
    void evolveNeverAddsANameThatCannotBeAPlainColumnNorAnUnsupportedType() {
        List<FileColumn> file = List.of(new FileColumn("id", null), new FileColumn("value", null),
                new FileColumn("_row_hash", null), new FileColumn("x varchar; drop", null), new FileColumn("ID", null),
                new FileColumn("amount", null, "optional fixed_len_byte_array(12) amount (INTERVAL)"));
        assertThat(SchemaDiff.of(contract(DriftPolicy.EVOLVE), file)).extracting(SchemaChange::column, SchemaChange::outcome)
                .contains(tuple("value", Outcome.REFUSED), tuple("_row_hash", Outcome.REFUSED),
                        tuple("x varchar; drop", Outcome.REFUSED), tuple("ID", Outcome.REFUSED), tuple("amount", Outcome.REFUSED));
        assertThat(SchemaDiff.of(contract(DriftPolicy.FAIL), List.of(new FileColumn("id", null, "required int64 id (INTEGER(64,false))"))))
                .extracting(SchemaChange::kind, SchemaChange::column, SchemaChange::outcome)
                .contains(tuple(Kind.RETYPED, "id", Outcome.REFUSED));
    }

    @Test
    void aDecimalOfAnotherShapeOrAnIntegerLoadsAndADoubleIsRefused() {
        ContractSpec c = new ContractSpec(Path.of("c.v1.yaml"), "c", 1, List.of(
                ColumnSpec.decimal("amount", new DecimalSpec(12, 2), false), new ColumnSpec("score", ColumnType.DOUBLE, true)),
                DriftPolicy.FAIL);
        FileColumn score = new FileColumn("score", ColumnType.DOUBLE);
        assertThat(SchemaDiff.of(c, List.of(new FileColumn("amount", ColumnType.DECIMAL, new DecimalSpec(12, 2), null), score)))
                .isEmpty();
        assertThat(SchemaDiff.of(c, List.of(new FileColumn("amount", ColumnType.DECIMAL, new DecimalSpec(9, 1), null), score)))
                .extracting(SchemaChange::describe)
                .containsExactly("WIDENED column 'amount' (decimal(9,1) in the file, decimal(12,2) in the contract): ACCEPTED");
        assertThat(SchemaDiff.of(c, List.of(new FileColumn("amount", ColumnType.DECIMAL, new DecimalSpec(20, 4), null), score)))
                .extracting(SchemaChange::describe).containsExactly("NARROWED column 'amount' (decimal(20,4) in the file,"
                        + " decimal(12,2) in the contract; each value must fit): ACCEPTED");
        assertThat(SchemaDiff.of(c, List.of(new FileColumn("amount", ColumnType.INT), score)))
                .extracting(SchemaChange::kind, SchemaChange::outcome).containsExactly(tuple(Kind.WIDENED, Outcome.ACCEPTED));
        assertThat(SchemaDiff.of(c, List.of(new FileColumn("amount", ColumnType.LONG), score)))
                .extracting(SchemaChange::kind, SchemaChange::outcome).containsExactly(tuple(Kind.NARROWED, Outcome.ACCEPTED));
        assertThat(SchemaDiff.of(c, List.of(new FileColumn("amount", ColumnType.DOUBLE),
                new FileColumn("score", ColumnType.DECIMAL, new DecimalSpec(30, 10), null))))
                .extracting(SchemaChange::describe).containsExactly(
                        "RETYPED column 'amount' (double in the file, decimal(12,2) in the contract): REFUSED",
                        "RETYPED column 'score' (decimal(30,10) in the file, double in the contract): REFUSED");
    }

    @Test
    void aLongColumnNameIsCutInDescriptions() {
        List<SchemaChange> changes = SchemaDiff.of(contract(DriftPolicy.FAIL), List.of(new FileColumn("id", null),
                new FileColumn("score", null), new FileColumn("note", null), new FileColumn("g".repeat(5000), null)));
        assertThat(changes.get(0).describe()).isEqualTo("ADDED column '" + "g".repeat(101) + "… (5000 characters)': REFUSED");
    }
}
