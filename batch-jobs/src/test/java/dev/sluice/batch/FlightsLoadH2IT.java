package dev.sluice.batch;

/** The flights load against the default warehouse: an H2 file database. */
class FlightsLoadH2IT extends FlightsLoadContract {

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
