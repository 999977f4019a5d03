package io.kcscale.tests.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A second {@code up} over a running stack, or onto a taken port, refuses and changes nothing. */
@Order(2)
@ExtendWith(SharedStack.class)
class LauncherSafetyTest {

    @Test
    void secondUpOverARunningStackRefusesAndChangesNothing(LocalStack stack) throws IOException {
        Path state = stack.endpoints().dataDir().resolve("stack.json");
        byte[] before = Files.readAllBytes(state);
        Map<String, String> sinkBefore;
        try (StackProbe probe = new StackProbe(stack)) {
            sinkBefore = probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR);
            StackOptions again = StackOptions.builder(stack.options().home())
                    .dataDir(stack.endpoints().dataDir())
                    .freePorts()
                    .fresh(true)
                    .sinkTasks(5)
                    .build();
            IllegalStateException refused =
                    assertThrows(IllegalStateException.class, () -> LocalStack.start(again, m -> {}));
            assertTrue(refused.getMessage().contains("already runs"), refused.getMessage());
            assertArrayEquals(before, Files.readAllBytes(state), "stack.json must be untouched");
            assertEquals(
                    sinkBefore,
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR),
                    "connectors must be untouched");
            assertTrue(stack.component("kafka").isAlive()
                    && stack.component("connect-0").isAlive());
        }
    }

    @Test
    void aTakenPortIsNamedBeforeAnythingStarts(LocalStack stack, @TempDir Path dataDir) throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            StackOptions options = StackOptions.builder(stack.options().home())
                    .dataDir(dataDir)
                    .freePorts()
                    .elasticsearchPort(taken.getLocalPort())
                    .build();
            IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> LocalStack.start(options, m -> {}));
            assertTrue(
                    refused.getMessage().contains("port " + taken.getLocalPort() + " (Elasticsearch HTTP) is in use"),
                    refused.getMessage());
            assertTrue(refused.getMessage().contains("--elasticsearch-port"), refused.getMessage());
            assertTrue(!Files.exists(dataDir.resolve("logs")), "nothing may have started");
        }
    }
}
