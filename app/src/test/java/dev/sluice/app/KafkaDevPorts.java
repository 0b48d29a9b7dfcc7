package dev.sluice.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A free client port on the loopback interface for a test's kafka-dev broker (which picks its controller's port itself). */
final class KafkaDevPorts {

    private KafkaDevPorts() {
    }

    /** A port of the loopback interface free now. */
    static int free() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
