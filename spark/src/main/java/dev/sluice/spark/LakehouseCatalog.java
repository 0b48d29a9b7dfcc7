package dev.sluice.spark;

import java.util.Objects;

/**
 * Where a lakehouse keeps its Iceberg catalog and data files: Iceberg's {@code JdbcCatalog} in the
 * warehouse database (tables {@code iceberg_tables} and {@code iceberg_namespace_properties}, which
 * Iceberg creates), its data files under {@link #location}. The catalog's name is always
 * {@link #NAME}, so every tool pointed at the same database (Spark, Trino's {@code iceberg.catalog.type=jdbc})
 * sees the same tables.
 *
 * @param jdbcUrl the warehouse JDBC URL ({@code jdbc:h2:…} or {@code jdbc:postgresql:…})
 * @param user the database user
 * @param password the password; never logged, {@link #toString()} hides it
 * @param location the data files' root: a local path or a Hadoop-FS URI
 */
public record LakehouseCatalog(String jdbcUrl, String user, String password, String location) {

    /** The Iceberg catalog's name, in the database and in Spark SQL ({@code sluice.silver.flights}). */
    public static final String NAME = "sluice";

    public LakehouseCatalog {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(location, "location");
    }

    @Override
    public String toString() {
        return "LakehouseCatalog[" + jdbcUrl + ", user=" + user + ", password=****, location=" + location + "]";
    }
}
