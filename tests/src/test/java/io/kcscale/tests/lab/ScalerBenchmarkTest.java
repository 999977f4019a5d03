package io.kcscale.tests.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.tests.fixtures.LabRun;
import io.kcscale.tests.fixtures.OwnStack;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code kcscale bench scaler --quick --json} on a stack of its own: its one point measured (its one sink reading
 * three topics by a {@code topics.regex}), the scaler's rounds read from its round histogram, its CPU and heap from
 * its /metrics, and the connectors' list timed.
 */
@Order(24)
@ExtendWith(OwnStack.class)
class ScalerBenchmarkTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A run that lost its bounds, not a busy machine: the quick run's own setup waits are two minutes each at most. */
    private static final int QUICK_CEILING_SECONDS = 600;

    @Test
    void quickRunMeasuresEveryPoint() throws Exception {
        Path home = RepositoryFiles.home();
        LabRun run = LabRun.of(
                "bench",
                "scaler",
                "--quick",
                "--json",
                "--data-dir",
                home.resolve("tests/target/e2e-bench-scaler").toString(),
                "--results-dir",
                home.resolve("tests/target/e2e-bench-scaler-results").toString());
        System.out.printf("[measure] bench scaler --quick took %.0f s%n%s%n%s", run.seconds(), run.out(), run.err());
        assertEquals(0, run.exit(), run.err());
        JsonNode r = JSON.readTree(run.out());
        JsonNode points = r.path("points");
        assertEquals(1, points.size(), "one point: " + points);
        assertEquals(
                List.of(1, 50, 3),
                List.of(
                        points.path(0).path("connectors").asInt(),
                        points.path(0).path("partitions").asInt(),
                        points.path(0).path("topics").asInt()));
        assertTrue(r.path("stoppedAt").isMissingNode(), "every point measured: " + r.path("stoppedAt"));
        assertTrue(r.path("withinIntervalEveryPoint").isBoolean(), r.toString());
        assertEquals(
                points.path(0).path("withinInterval").asBoolean(),
                r.path("withinIntervalEveryPoint").asBoolean(),
                "the run's verdict is its one point's: " + r);
        // one point cannot separate a connector's cost from a partition's
        assertTrue(
                r.path("cpuMsPerRoundFit").isMissingNode()
                        && r.path("roundP50MsFit").isMissingNode()
                        && r.path("heapMbFit").isMissingNode(),
                "no fit from one point: " + r);
        for (JsonNode p : points) {
            String at = p.path("connectors").asInt() + " connectors: " + p;
            // a 16 s window, a round every 2 s after the last ended: at least 2 even when a loaded machine slows each
            // round
            assertTrue(p.path("rounds").asLong() >= 2, "rounds ended in the window, " + at);
            assertTrue(
                    p.path("roundMeanMs").asDouble() > 0 && p.path("roundP50Ms").asDouble() > 0, at);
            assertTrue(p.path("roundP99Ms").asDouble() >= p.path("roundP50Ms").asDouble(), at);
            assertTrue(
                    p.path("cpuPercentOfCore").asDouble() > 0
                            && p.path("cpuPercentOfCore").asDouble() < 200,
                    at);
            assertTrue(p.path("cpuMsPerRound").asDouble() > 0, at);
            assertTrue(p.path("heapMaxMb").asDouble() > 0, at);
            assertTrue(
                    p.path("heapUsedAfterGcMb").isNull()
                            || p.path("heapUsedAfterGcMb").asDouble()
                                    <= p.path("heapMaxMb").asDouble(),
                    at);
            // a JDK runs the tests, so jcmd is there: the live heap after the full GC the benchmark asks for
            assertTrue(
                    p.path("heapLiveMb").asDouble() > 0
                            && p.path("heapLiveMb").asDouble()
                                    <= p.path("heapMaxMb").asDouble(),
                    at);
            assertEquals(30, p.path("apiRequests").asInt(), at);
            assertTrue(
                    p.path("apiP99Ms").asDouble() > 0
                            && p.path("apiP99Ms").asDouble()
                                    >= p.path("apiP50Ms").asDouble(),
                    at);
        }
        assertTrue(
                run.seconds() < QUICK_CEILING_SECONDS,
                "--quick must finish within " + QUICK_CEILING_SECONDS + " s, took " + run.seconds());
    }
}
