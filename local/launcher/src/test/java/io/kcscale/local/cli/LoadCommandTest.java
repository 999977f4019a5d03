package io.kcscale.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** What {@code load} says before touching anything; the changes themselves are tested on the real stack. */
class LoadCommandTest {

    @Test
    void aRateThatIsNoPositiveNumberIsAUsageError() {
        for (String rate : new String[] {"0", "-5", "fast", "NaN", "Infinity"}) {
            Run run = run("load", "--rate", rate, "--connect-url", "http://127.0.0.1:1");
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
        Run run = run("load", "--rate", "100", "--connect-url", "http://127.0.0.1:" + closedPort);

        assertEquals(1, run.exitCode());
        assertTrue(
                run.err()
                        .startsWith(
                                "kcscale load: Kafka Connect at http://127.0.0.1:" + closedPort + "/ is unreachable"),
                run.err());
        assertTrue(run.err().endsWith("(is the stack up? --connect-url names Kafka Connect)\n"), run.err());
    }

    private record Run(int exitCode, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = LocalCommand.newCommandLine()
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }
}
