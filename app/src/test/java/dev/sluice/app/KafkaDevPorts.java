package dev.sluice.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A client port for a test's kafka-dev broker, whose KRaft controller listens on the next port:
 * both must be free. A port from {@code new ServerSocket(0)} alone left the next one to chance (CI
 * of 2026-12-04: {@code sluice kafka-dev start} exited 1 after 2 s in {@code BrokerRestartIT}).
 */
final class KafkaDevPorts {

    private KafkaDevPorts() {
    }

    /** A port p of the loopback interface with p and p + 1 free now (20 tries). */
    static int free() {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (ServerSocket first = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = first.getLocalPort();
                if (port < 65_535) {
                    try (ServerSocket next = new ServerSocket(port + 1, 1, InetAddress.getLoopbackAddress())) {
                        return port;
                    } catch (IOException taken) {
                        // the controller's port is taken: another pair
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no two consecutive free ports on the loopback interface in 20 tries");
    }
}
