package dev.sluice.engine.lakehouse;

import dev.sluice.engine.LayerColumns;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.spark.LakehouseCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A lakehouse's Iceberg catalog through Iceberg's Java API (Iceberg's {@code JdbcCatalog} in the
 * warehouse database, one per catalog for the JVM's life) and the pipeline's tables in it. Every
 * table is format v2, Parquet, partitioned by {@link LakehouseNames#PARTITION} as an identity
 * column holding the business date/hour/month (not Iceberg's {@code days()} transform of a
 * timestamp, which cuts at UTC; a business date does not). Columns:
 * <ul>
 *   <li>Bronze: the contract's columns, then {@code _sluice_partition}, {@code _run_id},
 *       {@code _source}, {@code _source_pos} (long), {@code _ingested_at} (timestamp with zone),
 *       {@code _row_hash}, {@code _parse_errors};</li>
 *   <li>Silver/Gold: the declared columns, then {@code _sluice_partition} and {@code _run_id}.
 *       Versions are the table's snapshots: the lakehouse keeps no {@code _version} column.</li>
 * </ul>
 * Thread-safe.
 */
final class IcebergTables {

    private static final Map<LakehouseCatalog, JdbcCatalog> CATALOGS = new ConcurrentHashMap<>();
    /**
     * Format v2, Parquet, and copy-on-write for UPDATE, DELETE and MERGE (Iceberg's default, set
     * explicitly): an erasure must leave no data file of the current snapshot holding the old
     * value, which merge-on-read's delete files would. Commits retry up to
     * {@value #COMMIT_RETRIES} times (Iceberg's default is 4): the partitions of a wave stage,
     * publish and prune their branches on one table at once, each an optimistic commit of its
     * metadata.
     */
    private static final String COMMIT_RETRIES = "25";
    private static final Map<String, String> PROPERTIES = Map.of(
            TableProperties.COMMIT_NUM_RETRIES, COMMIT_RETRIES,
            TableProperties.FORMAT_VERSION, "2",
            TableProperties.DEFAULT_FILE_FORMAT, "parquet",
            TableProperties.UPDATE_MODE, "copy-on-write",
            TableProperties.DELETE_MODE, "copy-on-write",
            TableProperties.MERGE_MODE, "copy-on-write");

    private IcebergTables() {
    }

    /** The catalog, initialised on first use (Iceberg creates its tables in the database then). */
    static Catalog catalog(LakehouseCatalog lakehouse) {
        return CATALOGS.computeIfAbsent(lakehouse, l -> {
            JdbcCatalog c = new JdbcCatalog();
            c.setConf(new Configuration());
            c.initialize(LakehouseCatalog.NAME, Map.of(
                    CatalogProperties.URI, l.jdbcUrl(),
                    "jdbc.user", l.user(),
                    "jdbc.password", l.password(),
                    CatalogProperties.WAREHOUSE_LOCATION, l.location()));
            return c;
        });
    }

    /**
     * Creates every missing namespace and table of {@code spec}. Idempotent; one creation at a time
     * in this JVM (the partitions of a backfill start together), and a creation another process won
     * is taken as done when the namespace or table exists afterwards.
     */
    static synchronized void create(Catalog catalog, PipelineSpec spec) {
        SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
        for (TableSpec t : spec.tables()) {
            Namespace ns = Namespace.of(t.table().schema());
            if (!namespaces.namespaceExists(ns)) {
                try {
                    namespaces.createNamespace(ns);
                } catch (RuntimeException raced) {
                    // another process created it meanwhile: the JDBC catalog reports the duplicate key
                    // as an UncheckedSQLException, not as AlreadyExistsException
                    if (!namespaces.namespaceExists(ns)) {
                        throw raced;
                    }
                }
            }
            if (!catalog.tableExists(LakehouseNames.iceberg(t.table()))) {
                Schema schema = schema(t, bronzeColumns(spec, t));
                try {
                    catalog.createTable(LakehouseNames.iceberg(t.table()), schema,
                            PartitionSpec.builderFor(schema).identity(LakehouseNames.PARTITION).build(),
                            PROPERTIES);
                } catch (RuntimeException raced) {
                    if (!catalog.tableExists(LakehouseNames.iceberg(t.table()))) {
                        throw raced; // not a race with another process creating it
                    }
                }
            } else {
                Table existing = catalog.loadTable(LakehouseNames.iceberg(t.table()));
                if (!COMMIT_RETRIES.equals(existing.properties().get(TableProperties.COMMIT_NUM_RETRIES))) {
                    existing.updateProperties().set(TableProperties.COMMIT_NUM_RETRIES, COMMIT_RETRIES).commit(); // a table made before
                }
            }
        }
    }

    /** The table, loaded now (its current metadata). */
    static Table load(Catalog catalog, TableSpec table) {
        return catalog.loadTable(LakehouseNames.iceberg(table.table()));
    }

    /** A Bronze table's business columns are its source contract's; other tables declare theirs. */
    private static List<ColumnSpec> bronzeColumns(PipelineSpec spec, TableSpec t) {
        if (t.layer() == Layer.BRONZE && t.source() != null) {
            return spec.source(t.source()).orElseThrow().contract().columns();
        }
        return t.columns();
    }

    /** The table's Iceberg schema: business columns, then the metadata columns of its layer. */
    static Schema schema(TableSpec t, List<ColumnSpec> business) {
        List<Types.NestedField> fields = new ArrayList<>();
        int id = 1;
        for (ColumnSpec c : business) {
            fields.add(Types.NestedField.optional(id++, c.name(), IcebergTypes.of(c)));
        }
        List<String> metadata = t.layer() == Layer.BRONZE ? LayerColumns.BRONZE_METADATA : List.of("_partition", "_run_id");
        for (String m : metadata) {
            fields.add(Types.NestedField.optional(id++, LakehouseNames.physical(m), metadataType(m)));
        }
        return new Schema(fields);
    }

    private static Type metadataType(String column) {
        return switch (column) {
            case "_source_pos" -> Types.LongType.get();
            case "_ingested_at" -> Types.TimestampType.withZone();
            default -> Types.StringType.get();
        };
    }
}
