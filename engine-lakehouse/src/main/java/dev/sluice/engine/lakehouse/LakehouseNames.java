package dev.sluice.engine.lakehouse;

import dev.sluice.core.DatasetRef;
import dev.sluice.spark.LakehouseCatalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The lakehouse's physical names. Iceberg 1.10 reserves {@code _partition} (and {@code _file},
 * {@code _pos}, {@code _spec_id}, {@code _deleted}, {@code _change_type}, {@code _change_ordinal},
 * {@code _commit_snapshot_id}) for its metadata columns: a table column so named can be written but
 * not selected (../shared/DEPENDENCIES.md, "Reserved column names"). The logical partition column
 * {@code _partition} is therefore {@link #PARTITION} in every lakehouse table; the other ingest
 * metadata columns keep their names. Layer SQL sees {@code _partition} inside {@code {input}} on
 * both engines. Stateless.
 */
final class LakehouseNames {

    /** The physical partition column of every lakehouse table: the business date/hour/month, an identity partition. */
    static final String PARTITION = "_sluice_partition";
    /** The logical partition column, as the warehouse engine and layer SQL name it. */
    static final String LOGICAL_PARTITION = "_partition";

    private LakehouseNames() {
    }

    /** The physical name of a logical column: {@code _partition} → {@link #PARTITION}, every other name itself. */
    static String physical(String logical) {
        return LOGICAL_PARTITION.equals(logical) ? PARTITION : logical;
    }

    /** The table in Spark SQL, quoted: {@code sluice.`silver`.`flights`}. */
    static String spark(DatasetRef table) {
        return LakehouseCatalog.NAME + ".`" + table.schema() + "`.`" + table.table() + "`";
    }

    /** The table in Iceberg's catalog: namespace = layer schema, name = table. */
    static TableIdentifier iceberg(DatasetRef table) {
        return TableIdentifier.of(table.schema(), table.table());
    }
}
