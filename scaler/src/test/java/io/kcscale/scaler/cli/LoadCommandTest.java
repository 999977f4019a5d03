package io.kcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

/** What {@code load} says before touching anything; the changes themselves are tested on the real stack. */
class LoadCommandTest {

    @Test
    void aRateThatIsNoPositiveNumberIsAUsageError() {
        for (String rate : new String[] {"0", "-5", "fast", "NaN", "Infinity"}) {
            CliRun run = CliRun.of("load", "--rate", rate, "--connect-url", "http://127.0.0.1:1");
            assertEquals(2, run.exitCode(), rate);
            assertEquals("kcscale load: --rate must be a positive number of records/s, got " + rate + "\n", run.err());
        }
    }

    @Test
    void anUnreachableConnectIsNamedWithTheFlagToFixIt() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        CliRun run = CliRun.of("load", "--rate", "100", "--connect-url", "http://127.0.0.1:" + closedPort);

        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("kcscale load: Kafka Connect at http://127.0.0.1:" + closedPort + "/ is unreachable"), run.err());
        assertTrue(run.err().endsWith("(is the stack up? --connect-url names Kafka Connect)\n"), run.err());
    }
}
