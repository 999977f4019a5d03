package io.kcscale.tests.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.local.cli.LocalCommand;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code kcscale load} changes the running source through Connect's REST API; bad arrivals or a bad key
 * cardinality are refused by Connect's validation with a message naming the key, and nothing changes.
 * Leaves the source's config as it found it.
 */
@Order(4)
@ExtendWith(SharedStack.class)
class LoadCommandTest {

    private record Run(int exitCode, String out, String err) {}

    private static Run load(LocalStack stack, String... flags) {
        String[] args = new String[flags.length + 3];
        args[0] = "load";
        args[1] = "--connect-url";
        args[2] = stack.endpoints().connectUrl().toString();
        System.arraycopy(flags, 0, args, 3, flags.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = LocalCommand.newCommandLine()
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void loadChangesTheRunningSourceAndRefusesBadInputChangingNothing(LocalStack stack) throws Exception {
        try (StackProbe probe = new StackProbe(stack)) {
            Map<String, String> original = probe.connect.connectorConfig(StackOptions.SOURCE_CONNECTOR);
            try {
                Run changed = load(stack, "--rate", "600", "--arrivals", "poisson", "--key-cardinality", "50");
                assertEquals(0, changed.exitCode(), changed.err());
                assertTrue(
                        changed.out()
                                .startsWith("stocks-datagen now produces 600 records/s in total (1 task at 600/s)"),
                        changed.out());
                assertTrue(changed.out().contains("  arrivals: (unset) -> poisson"), changed.out());
                Map<String, String> now = probe.connect.connectorConfig(StackOptions.SOURCE_CONNECTOR);
                assertEquals("600.0", now.get("rate.per.task"));
                assertEquals("poisson", now.get("arrivals"));
                assertEquals("50", now.get("key.cardinality"));
                assertEquals(original.get("iterations"), now.get("iterations"), "what load does not set stays");

                Run weird = load(stack, "--rate", "100", "--arrivals", "weird");
                assertEquals(1, weird.exitCode());
                assertTrue(
                        weird.err()
                                .startsWith("kcscale load: Kafka Connect rejected the change, nothing was changed: "),
                        weird.err());
                assertTrue(weird.err().contains("Invalid value weird for configuration arrivals"), weird.err());
                assertTrue(weird.err().contains("steady, poisson, bursts"), weird.err());
                assertEquals(
                        now,
                        probe.connect.connectorConfig(StackOptions.SOURCE_CONNECTOR),
                        "a refused change changes nothing");

                Run unknown = load(stack, "--rate", "100", "--connector", "no-such-source");
                assertEquals(1, unknown.exitCode());
                assertTrue(
                        unknown.err().contains("has no connector no-such-source: --connector names the datagen source"),
                        unknown.err());
            } finally {
                probe.connect.putConnectorConfig(StackOptions.SOURCE_CONNECTOR, original);
            }
        }
    }

    @Test
    void connectsRestValidationRefusesBadArrivalsAndAZeroKeyCardinality(LocalStack stack) throws Exception {
        try (StackProbe probe = new StackProbe(stack)) {
            Map<String, String> original = probe.connect.connectorConfig(StackOptions.SOURCE_CONNECTOR);
            assertRefused(
                    probe,
                    original,
                    "arrivals",
                    "weird",
                    "Invalid value weird for configuration arrivals: String must be one of: steady, poisson, bursts");
            assertRefused(
                    probe,
                    original,
                    "key.cardinality",
                    "0",
                    "Invalid value 0 for configuration key.cardinality: must be at least 1");
            assertEquals(original, probe.connect.connectorConfig(StackOptions.SOURCE_CONNECTOR));
        }
    }

    private static void assertRefused(
            StackProbe probe, Map<String, String> original, String key, String value, String message) {
        Map<String, String> bad = new HashMap<>(original);
        bad.put(key, value);
        ConnectRestException.ConfigRejected refused = assertThrows(
                ConnectRestException.ConfigRejected.class,
                () -> probe.connect.putConnectorConfig(StackOptions.SOURCE_CONNECTOR, bad));
        assertTrue(refused.getMessage().contains(message), refused.getMessage());
    }
}
