package io.kcscale.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;

/**
 * Clients that try to starve the scaler, all at once, on the shared stack: predictions with 38,000-point bodies
 * (about 1 MiB each), refused in one line for their size, and eight unauthenticated checks that sample keys for
 * 60 s and so hold every permit checks have. Meanwhile a token holder's scale (a forced dry run: its pre-checks, key
 * sample included, and its plan; nothing written) answers as it does alone, within twice its slowest time alone and 2 s.
 */
@Order(6)
@ExtendWith(SharedStack.class)
class HostileClientsTest {

    private static final String TOKEN = "hostile-clients-test-token";
    private static final String SINK = StackOptions.SINK_CONNECTOR;
    private static final int CHECKS = 8;
    private static final int PREDICT_CLIENTS = 4;
    private static final int POINTS = 38_000;
    private static final int SCALES = 3;

    @Test
    void aTokenHoldersScaleAnswersInItsUsualTimeWhilePredictionsAndChecksFlood(LocalStack stack) throws Exception {
        try (InProcessScaler scaler = InProcessScaler.start(stack, Map.of("token", TOKEN))) {
            int tasks = scaler.http.awaitGet("/api/v1/connectors/" + SINK, b -> b.path("tasksMax").isInt(), Duration.ofSeconds(60))
                    .path("tasksMax").asInt();
            // down, forced: no partition rule refuses it before the pre-checks run, and none of their findings stops it
            int target = tasks > 1 ? tasks - 1 : tasks + 1;
            String scale = "{\"tasks\":" + target + ",\"force\":true,\"dryRun\":true}";
            List<Long> alone = new ArrayList<>();
            int status = scale(scaler, scale, alone);
            for (int i = 1; i < SCALES; i++) {
                assertEquals(status, scale(scaler, scale, alone));
            }
            assertNotEquals(503, status);

            StringBuilder body = new StringBuilder("{\"targetRate\":1000,\"measurements\":[");
            for (int i = 0; i < POINTS; i++) {
                body.append(i == 0 ? "" : ",").append("{\"tasks\":").append(1 + i % 9).append(",\"throughput\":").append(1 + i % 7).append('}');
            }
            String predict = body.append("]}").toString();
            assertTrue(predict.length() < 1 << 20, predict.length() + " bytes: under the body limit, so the points are what is refused");

            ExecutorService hostile = Executors.newFixedThreadPool(CHECKS + PREDICT_CLIENTS);
            AtomicBoolean flooding = new AtomicBoolean(true);
            List<Long> refusals = Collections.synchronizedList(new ArrayList<>());
            List<Long> loaded = new ArrayList<>();
            try {
                List<Future<Integer>> checks = new ArrayList<>();
                for (int i = 0; i < CHECKS; i++) {
                    checks.add(hostile.submit(() -> scaler.http.get("/api/v1/connectors/" + SINK + "/checks?sampleSeconds=60").status()));
                }
                List<Future<Integer>> predictors = new ArrayList<>();
                for (int i = 0; i < PREDICT_CLIENTS; i++) {
                    predictors.add(hostile.submit(() -> {
                        int sent = 0;
                        while (flooding.get()) {
                            long started = System.nanoTime();
                            ScalerHttp.Answer a = scaler.http.post("/api/v1/predict/tasks", predict);
                            refusals.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                            String error = a.body() == null ? a.raw() : a.body().path("error").asText();
                            assertEquals(400, a.status(), a.raw());
                            assertTrue(error.startsWith("measurements hold 38,000 points, more than the 1,000 a prediction takes"), error);
                            assertEquals(1, error.lines().count(), error);
                            sent++;
                        }
                        return sent;
                    }));
                }
                // the eight checks hold every permit checks have: a ninth is turned away
                Poll.until("eight checks holding every permit of checks", Duration.ofSeconds(30), Duration.ofMillis(200), () -> {
                    ScalerHttp.Answer ninth = scaler.http.get("/api/v1/connectors/" + SINK + "/checks?sampleSeconds=1");
                    if (ninth.status() == 503 && ninth.raw().contains("already running " + CHECKS + " checks")) {
                        return Optional.of(true);
                    }
                    throw new IllegalStateException(ninth.status() + " " + ninth.raw());
                });
                for (int i = 0; i < SCALES; i++) {
                    assertEquals(status, scale(scaler, scale, loaded), "the scale answers as it does alone");
                }
                flooding.set(false);
                int predictions = 0;
                for (Future<Integer> p : predictors) {
                    predictions += p.get(60, TimeUnit.SECONDS);
                }
                for (Future<Integer> c : checks) {
                    c.get(3, TimeUnit.MINUTES);
                }
                List<Long> sorted = refusals.stream().sorted().toList();
                System.out.printf("[measure] %s: dry-run scale of %s to %d tasks (answer %d), ms alone %s, ms under %d checks of 60 s and %d"
                                + " clients posting %d-point predictions %s; %d predictions refused, ms p50 %d, max %d%n",
                        Instant.now(), SINK, target, status, alone, CHECKS, PREDICT_CLIENTS, POINTS, loaded, predictions,
                        sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1));
                assertTrue(predictions >= PREDICT_CLIENTS, predictions + " predictions sent");
                assertTrue(sorted.get(sorted.size() / 2) < 2_000, "a refusal takes " + sorted.get(sorted.size() / 2) + " ms (p50)");
            } finally {
                flooding.set(false);
                hostile.shutdownNow();
            }
            long usual = Collections.max(alone);
            for (long ms : loaded) {
                assertTrue(ms <= 2 * usual + 2_000, "a scale took " + ms + " ms under the hostile load, " + alone + " ms alone");
            }
        }
    }

    private static int scale(InProcessScaler scaler, String body, List<Long> millis) {
        long started = System.nanoTime();
        ScalerHttp.Answer a = scaler.http.post("/api/v1/connectors/" + SINK + "/scale", body, TOKEN);
        millis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        assertNotEquals(401, a.status(), a.raw());
        return a.status();
    }
}
