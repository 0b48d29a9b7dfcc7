package dev.sluice.engine.contract;

/**
 * The lakehouse flights load with its Iceberg catalog in the default warehouse: an H2 file database.
 */
class FlightsLoadLakehouseIT extends LakehouseEngineContract {

    FlightsLoadLakehouseIT() {
        super(KitDatabase.h2());
    }
}
