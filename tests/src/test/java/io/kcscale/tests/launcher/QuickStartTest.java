package io.kcscale.tests.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.FreePort;
import io.kcscale.tests.fixtures.OwnStack;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The quick start's first scale, as a newcomer types it: right after a fresh {@code ./kcscale up --detach --rate 200}
 * returns, {@code ./kcscale scale stocks-es-sink --tasks 3} goes ahead. The worker's JVMs are still warming up then
 * and Elasticsearch shares the host: that may warn of a busy host, never refuse the scale. Every port is a free one,
 * so the test never meets a stack a user runs on the defaults.
 */
@Order(20)
@ExtendWith(OwnStack.class)
class QuickStartTest {

    private static final Path HOME = RepositoryFiles.home();
    private static final String KCSCALE = HOME.resolve("kcscale").toString();

    @Test
    void theFirstScaleRightAfterUpDetachGoesAhead() {
        String dataDir = HOME.resolve("tests/target/e2e-quick-start").toString();
        int scalerPort = FreePort.any();
        List<String> up = new ArrayList<>(List.of(
                KCSCALE,
                "up",
                "--detach",
                "--fresh",
                "--rate",
                "200",
                "--data-dir",
                dataDir,
                "--scaler-port",
                String.valueOf(scalerPort)));
        for (String flag : List.of(
                "--kafka-port",
                "--controller-port",
                "--connect-port",
                "--elasticsearch-port",
                "--elasticsearch-transport-port")) {
            up.add(flag);
            up.add(String.valueOf(FreePort.any()));
        }
        try {
            Commands.Result started = Commands.run(HOME, Duration.ofMinutes(8), Map.of(), up);
            assertEquals(0, started.exit(), started.output());
            assertTrue(started.output().contains("documents are flowing"), started.output());

            Commands.Result scaled = Commands.run(
                    HOME,
                    Duration.ofMinutes(3),
                    Map.of(),
                    List.of(
                            KCSCALE,
                            "scale",
                            "stocks-es-sink",
                            "--tasks",
                            "3",
                            "--scaler-url",
                            "http://127.0.0.1:" + scalerPort));
            System.out.println("[quick start] " + scaled.output().strip().replace("\n", "\n[quick start] "));
            assertEquals(0, scaled.exit(), "the first scale was refused:\n" + scaled.output());
        } finally {
            Commands.run(HOME, Duration.ofMinutes(2), Map.of(), List.of(KCSCALE, "down", "--data-dir", dataDir));
        }
    }
}
