package io.kcscale.scaler.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The probe against real sockets: a listener that answers (with a 401, as a worker behind basic auth), a closed port. */
class HttpWorkerProbeTest {

    private final HttpWorkerProbe probe = new HttpWorkerProbe("http", Duration.ofSeconds(2), null);

    @Test
    void anAnswerOfAnyStatusIsAliveAndAClosedPortIsNot() throws IOException {
        HttpServer worker = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        worker.createContext("/", exchange -> {
            exchange.sendResponseHeaders(401, -1);
            exchange.close();
        });
        worker.start();
        String closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = "127.0.0.1:" + socket.getLocalPort();
        }
        try {
            String alive = "127.0.0.1:" + worker.getAddress().getPort();
            long started = System.nanoTime();
            assertEquals(Set.of(closed), probe.unanswered(List.of(alive, closed)));
            assertTrue(
                    System.nanoTime() - started < Duration.ofSeconds(3).toNanos(),
                    "one round stays within the timeout");
        } finally {
            worker.stop(0);
        }
    }

    @Test
    void anAddressItCannotReadOrResolveIsNotTakenForDead() {
        assertEquals(Set.of(), probe.unanswered(List.of("not an address", "", "no-port", "worker.invalid:8083")));
        assertNull(probe.address("host:8083/path"));
        assertNull(probe.address("user@host:8083"));
        assertEquals("http://[::1]:8083/", probe.address("[::1]:8083").toString());
    }
}
