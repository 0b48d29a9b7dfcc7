package dev.sluice.batch.lakehouse;

/** The lakehouse flights load with its Iceberg catalog in the default warehouse: an H2 file database. */
class FlightsLoadLakehouseIT extends FlightsLoadLakehouseContract {

    private final String url = dev.sluice.batch.testkit.TestHome.freshH2Url();

    @Override
    String url() {
        return url;
    }

    @Override
    String user() {
        return "sa";
    }

    @Override
    String password() {
        return "";
    }
}
