package dev.sluice.engine.contract;

/** The flights load against the default warehouse: an H2 file database. */
class FlightsLoadH2IT extends WarehouseEngineContract {

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
