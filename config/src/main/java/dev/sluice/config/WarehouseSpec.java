package dev.sluice.config;

/**
 * Where the layers and Sluice's metadata live.
 *
 * @param url JDBC URL ({@code jdbc:h2:…} or {@code jdbc:postgresql:…})
 * @param user user name
 * @param password password; never logged or printed ({@link #toString()} hides it)
 */
public record WarehouseSpec(String url, String user, String password) {
    @Override
    public String toString() {
        return "WarehouseSpec[url=" + url + ", user=" + user + ", password=****]";
    }
}
