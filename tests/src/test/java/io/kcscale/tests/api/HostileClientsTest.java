package io.kcscale.tests.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.InProcessScaler;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Clients that try to starve the scaler, all at once, on the shared stack: predictions with 38,000-point bodies
 * (about 1 MiB each), refused in one line for their size, and eight unauthenticated checks that sample keys for
 * 60 s (of a topic of their own, a million records behind a stopped sink, read at the 256 KiB/s the broker allows
 * the key sampler) and so hold every permit checks
 * have. Meanwhile a token holder's scale (a forced dry run: its pre-checks, key sample included, and its plan;
 * nothing written) answers as it does alone, within twice its slowest time alone and 2 s (or 15 s).
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
    private static final int PARTITIONS = 8;
    private static final int RECORDS = 1_000_000;

    @Test
    void aTokenHoldersScaleAnswersInItsUsualTimeWhilePredictionsAndChecksFlood(LocalStack stack) throws Exception {
        try (InProcessScaler scaler = InProcessScaler.start(stack, Map.of("token", TOKEN));
                ScratchPipeline scratch = new ScratchPipeline(stack)) {
            int tasks = scaler.http
                    .awaitGet(
                            "/api/v1/connectors/" + SINK,
                            b -> b.path("tasksMax").isInt(),
                            Duration.ofSeconds(60))
                    .path("tasksMax")
                    .asInt();
            // down, forced: no partition rule refuses it before the pre-checks run, and none of their findings stops it
            int target = tasks > 1 ? tasks - 1 : tasks + 1;
            String scale = "{\"tasks\":" + target + ",\"force\":true,\"dryRun\":true}";
            List<Long> alone = new ArrayList<>();
            int status = scale(scaler, scale, alone);
            for (int i = 1; i < SCALES; i++) {
                assertEquals(status, scale(scaler, scale, alone));
            }
            assertNotEquals(503, status);

            // the checks sample a topic of their own, big enough that a 60 s sample runs out of time, not of records
            String topic = "hostile-keys-" + Long.toHexString(System.nanoTime());
            String hostileSink = topic + "-sink";
            scratch.topic(topic, PARTITIONS);
            produce(stack, topic);
            scratch.stoppedSink(hostileSink, topic, topic);
            // the broker serves the key sampler 256 KiB/s, so a 60 s sample runs out of time, not of records, on a
            // machine of any speed (unthrottled, a quiet host reads the topic in seconds and the checks let go early)
            samplerQuota(stack, 256 * 1024.0);
            scaler.http.awaitGet("/api/v1/connectors/" + hostileSink, b -> true, Duration.ofSeconds(60));
            String hostileCheck =
                    "/api/v1/connectors/" + hostileSink + "/checks?sampleSeconds=60&sampleRecords=10000000";

            StringBuilder body = new StringBuilder("{\"targetRate\":1000,\"measurements\":[");
            for (int i = 0; i < POINTS; i++) {
                body.append(i == 0 ? "" : ",")
                        .append("{\"tasks\":")
                        .append(1 + i % 9)
                        .append(",\"throughput\":")
                        .append(1 + i % 7)
                        .append('}');
            }
            String predict = body.append("]}").toString();
            assertTrue(
                    predict.length() < 1 << 20,
                    predict.length() + " bytes: under the body limit, so the points are what is refused");

            ExecutorService hostile = Executors.newFixedThreadPool(CHECKS + PREDICT_CLIENTS);
            AtomicBoolean flooding = new AtomicBoolean(true);
            AtomicInteger busy = new AtomicInteger();
            List<Long> refusals = Collections.synchronizedList(new ArrayList<>());
            List<Long> loaded = new ArrayList<>();
            try {
                List<Future<String>> checks = new ArrayList<>();
                for (int i = 0; i < CHECKS; i++) {
                    ScalerHttp client = scaler.http.another();
                    // a hostile client asks again when refused, as Retry-After invites: the ninth check that probes
                    // below takes a place while it runs, and on a fast machine it can come before the eighth
                    checks.add(hostile.submit(() -> {
                        ScalerHttp.Answer a = Poll.until(
                                "a place for a hostile check", Duration.ofSeconds(30), Duration.ofMillis(100), () -> {
                                    ScalerHttp.Answer answer = client.get(hostileCheck);
                                    return answer.status() == 503 ? Optional.empty() : Optional.of(answer);
                                });
                        return a.status() + " " + a.raw().lines().limit(3).toList();
                    }));
                }
                List<Future<Integer>> predictors = new ArrayList<>();
                for (int i = 0; i < PREDICT_CLIENTS; i++) {
                    ScalerHttp client = scaler.http.another();
                    predictors.add(hostile.submit(() -> {
                        int sent = 0;
                        while (flooding.get()) {
                            long started = System.nanoTime();
                            ScalerHttp.Answer a = client.post("/api/v1/predict/tasks", predict);
                            refusals.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                            String error = a.body() == null
                                    ? a.raw()
                                    : a.body().path("error").asText();
                            // refused for its points, or, while two predictions compute, for want of a place: one line
                            // either way
                            assertTrue(
                                    a.status() == 400
                                                    && error.startsWith(
                                                            "measurements hold 38,000 points, more than the 1,000 a prediction takes")
                                            || a.status() == 503
                                                    && error.equals(
                                                            "the scaler is already running 2 predictions; retry in 5 seconds"),
                                    a.raw());
                            assertEquals(1, error.lines().count(), error);
                            sent++;
                            if (a.status() == 503) {
                                busy.incrementAndGet();
                            }
                        }
                        return sent;
                    }));
                }
                // the eight checks hold every permit checks have: a ninth is turned away
                Poll.until(
                        "eight checks holding every permit of checks",
                        Duration.ofSeconds(30),
                        Duration.ofMillis(200),
                        () -> {
                            ScalerHttp.Answer ninth =
                                    scaler.http.get("/api/v1/connectors/" + hostileSink + "/checks?sampleSeconds=1");
                            if (ninth.status() == 503
                                    && ninth.raw().contains("already running " + CHECKS + " checks")) {
                                return Optional.of(true);
                            }
                            throw new IllegalStateException(ninth.status() + " "
                                    + ninth.raw().lines().limit(3).toList() + "; checks answered: "
                                    + checks.stream()
                                            .filter(Future::isDone)
                                            .map(HostileClientsTest::answer)
                                            .toList());
                        });
                for (int i = 0; i < SCALES; i++) {
                    assertEquals(status, scale(scaler, scale, loaded), "the scale answers as it does alone");
                }
                assertTrue(
                        checks.stream().noneMatch(Future::isDone), "the checks held their permits through every scale");
                flooding.set(false);
                int predictions = 0;
                for (Future<Integer> p : predictors) {
                    predictions += p.get(60, TimeUnit.SECONDS);
                }
                for (Future<String> c : checks) {
                    c.get(3, TimeUnit.MINUTES);
                }
                List<Long> sorted = refusals.stream().sorted().toList();
                System.out.printf(
                        "[measure] %s: dry-run scale of %s to %d tasks (answer %d), ms alone %s, ms under %d checks of 60 s and %d"
                                + " clients posting %d-point predictions %s; %d predictions refused (%d of them 503, busy), ms p50 %d, max %d%n",
                        Instant.now(),
                        SINK,
                        target,
                        status,
                        alone,
                        CHECKS,
                        PREDICT_CLIENTS,
                        POINTS,
                        loaded,
                        predictions,
                        busy.get(),
                        sorted.get(sorted.size() / 2),
                        sorted.get(sorted.size() - 1));
                assertTrue(predictions >= PREDICT_CLIENTS, predictions + " predictions sent");
                // the body is parsed whole before its points are counted: on a loaded host that takes seconds, never
                // the request's deadline
                assertTrue(
                        sorted.get(sorted.size() - 1) < ApiServer.REQUEST_SECONDS * 1_000L,
                        "a refusal took " + sorted.get(sorted.size() - 1) + " ms");
            } finally {
                flooding.set(false);
                hostile.shutdownNow();
                samplerQuota(stack, null);
            }
            // twice its slowest time alone and 2 s, or under 15 s: a scale whose pre-check joined a check's minute-long
            // key sample
            // would wait its own 5 s budget and the sampler's 12 s overhead first
            long usual = Collections.max(alone);
            for (long ms : loaded) {
                assertTrue(
                        ms <= Math.max(2 * usual + 2_000, 15_000),
                        "a scale took " + ms + " ms under the hostile load, " + alone + " ms alone");
            }
        }
    }

    /** Sets (or, with null, removes) the broker's fetch quota of the scaler's key sampler, by its client id. */
    private static void samplerQuota(LocalStack stack, Double bytesPerSecond) throws Exception {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.endpoints().kafkaBootstrap()))) {
            ClientQuotaEntity sampler =
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "kcscale-key-sampler"));
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                            sampler, List.of(new ClientQuotaAlteration.Op("consumer_byte_rate", bytesPerSecond)))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    /** {@link #RECORDS} small keyed JSON records, as fast as the broker takes them. */
    private static void produce(LocalStack stack, String topic) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack.endpoints().kafkaBootstrap(),
                        ProducerConfig.ACKS_CONFIG,
                        "1",
                        ProducerConfig.LINGER_MS_CONFIG,
                        20,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        512 * 1024),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            Future<?> last = null;
            for (int i = 0; i < RECORDS; i++) {
                last = producer.send(new ProducerRecord<>(
                        topic,
                        ("k" + i % 100_000).getBytes(StandardCharsets.UTF_8),
                        ("{\"symbol\":\"S" + i % 1_000 + "\",\"price\":" + i + "}").getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
            last.get(60, TimeUnit.SECONDS);
        }
    }

    private static String answer(Future<String> done) {
        try {
            return done.get();
        } catch (Exception e) {
            return e.toString();
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
