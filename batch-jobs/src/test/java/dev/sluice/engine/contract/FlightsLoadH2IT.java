package dev.sluice.engine.contract;

/**
 * The flights load against the default warehouse: an H2 file database.
 */
class FlightsLoadH2IT extends WarehouseEngineContract {

    FlightsLoadH2IT() {
        super(KitDatabase.h2());
    }
}
