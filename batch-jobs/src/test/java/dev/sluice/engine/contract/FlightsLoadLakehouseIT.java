package dev.sluice.engine.contract;

/** The lakehouse flights load with its Iceberg catalog in the default warehouse: an H2 file database. */
class FlightsLoadLakehouseIT extends LakehouseEngineContract {

    private final String url = dev.sluice.batch.testkit.TestHome.freshH2Url();

    @Override
    protected String url() {
        return url;
    }

    @Override
    protected String user() {
        return "sa";
    }

    @Override
    protected String password() {
        return "";
    }
}
