package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.local.LocalStack;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.PlainConsumer;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How long {@code ./kcscale check} takes on a topic of 20 partitions holding 1,000,000 records, and
 * how fast its key sample reads compared with a plain consumer reading the same topic on the same
 * machine (goal: within 2×). The sink is created STOPPED, so nothing but the measurement reads the topic.
 */
@Order(4)
@ExtendWith(SharedStack.class)
class CheckSamplingMeasureTest {

    private static final int RECORDS = 1_000_000;
    private static final int PARTITIONS = 20;
    private static final String TOPIC = "checks-million";
    private static final String SINK = "checks-million-sink";
    private static final String[] SIDES = {"BUY", "SELL"};
    private static final String[] SYMBOLS = {"ACME", "GLOBX", "HOOLI", "INITK", "STARK", "UMBRL", "WAYNE"};
    /** Each side reads the topic this often; the best run counts, the others absorb JIT warm-up and neighbours' noise. */
    private static final int ROUNDS = 2;

    @Test
    void checkOnAMillionRecordsAndSamplingAgainstAPlainConsumer(LocalStack stack) throws Exception {
        String scaler = stack.endpoints().scalerUrl().toString();
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.topic(TOPIC, PARTITIONS);
            long produceStart = System.nanoTime();
            produce(stack);
            System.out.printf(
                    "[measure] produced %,d stock trades into %d partitions in %.1f s%n",
                    RECORDS, PARTITIONS, (System.nanoTime() - produceStart) / 1e9);
            scratch.stoppedSink(SINK, TOPIC, TOPIC);
            ScalerHttp http = new ScalerHttp(stack.endpoints().scalerUrl());
            Poll.untilTrue(
                    "the scaler to observe " + SINK,
                    Duration.ofSeconds(30),
                    Duration.ofMillis(500),
                    () -> http.get("/api/v1/connectors/" + SINK).status() == 200,
                    () -> "not yet");

            double plainBest = 0;
            double sampledBest = 0;
            double fullCheckSeconds = Double.MAX_VALUE;
            double defaultCheckSeconds = Double.MAX_VALUE;
            for (int round = 1; round <= ROUNDS; round++) {
                long t0 = System.nanoTime();
                long read;
                try (KafkaConsumer<byte[], byte[]> consumer = PlainConsumer.open(stack)) {
                    read = PlainConsumer.readAll(consumer, TOPIC, r -> {});
                }
                double plain = read / ((System.nanoTime() - t0) / 1e9);
                assertEquals(RECORDS, read);

                long t1 = System.nanoTime();
                // a budget beyond the topic: each partition's share covers it whole, so the sample reads all records
                ScalingChecksTest.Run full = ScalingChecksTest.run(
                        "check",
                        SINK,
                        "--json",
                        "--sample-records",
                        "10000000",
                        "--sample-seconds",
                        "60",
                        "--scaler-url",
                        scaler);
                double fullSeconds = (System.nanoTime() - t1) / 1e9;
                JsonNode keys = ScalingChecksTest.finding(new ObjectMapper().readTree(full.out()), "key-cardinality")
                        .path("evidence");
                assertEquals(RECORDS, keys.path("sampledRecords").asLong(), full.out());
                double sampled = RECORDS / keys.path("samplingSeconds").asDouble();

                long t2 = System.nanoTime();
                ScalingChecksTest.Run byDefault =
                        ScalingChecksTest.run("check", SINK, "--json", "--scaler-url", scaler);
                double defaultSeconds = (System.nanoTime() - t2) / 1e9;
                JsonNode defaults = ScalingChecksTest.finding(
                                new ObjectMapper().readTree(byDefault.out()), "key-cardinality")
                        .path("evidence");
                assertEquals(
                        100_000, defaults.path("sampledRecords").asLong(), "the default record budget: " + defaults);
                assertEquals(
                        997, defaults.path("distinctKeys").asLong(), "prices 5..1001 all appear in 100,000 records");

                System.out.printf(
                        "[measure] round %d: plain consumer %,.0f records/s; check with 1M budget %.2f s (sampling %,.0f "
                                + "records/s); check with the default budget %.2f s%n",
                        round, plain, fullSeconds, sampled, defaultSeconds);
                plainBest = Math.max(plainBest, plain);
                sampledBest = Math.max(sampledBest, sampled);
                fullCheckSeconds = Math.min(fullCheckSeconds, fullSeconds);
                defaultCheckSeconds = Math.min(defaultCheckSeconds, defaultSeconds);
            }
            System.out.printf(
                    "[measure] check on %,d records in %d partitions: %.2f s reading them all, %.2f s with the default "
                            + "budget (100,000 records); sampling %,.0f records/s vs a plain consumer %,.0f records/s (plain ÷ sampling: %.2f)%n",
                    RECORDS,
                    PARTITIONS,
                    fullCheckSeconds,
                    defaultCheckSeconds,
                    sampledBest,
                    plainBest,
                    plainBest / sampledBest);
            assertTrue(
                    sampledBest * 2 >= plainBest,
                    "the goal: sampling within 2× of a plain consumer; " + sampledBest + " vs " + plainBest);
        }
    }

    /** Stock trades as the datagen writes them (JSON values), keyed by price. */
    private static void produce(LocalStack stack) throws Exception {
        Random random = new Random(42);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack.endpoints().kafkaBootstrap(),
                        ProducerConfig.LINGER_MS_CONFIG,
                        20,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        256 * 1024,
                        ProducerConfig.ACKS_CONFIG,
                        "1"),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                int price = 5 + random.nextInt(997);
                String value =
                        "{\"side\":\"" + SIDES[random.nextInt(2)] + "\",\"quantity\":" + (1 + random.nextInt(5000))
                                + ",\"symbol\":\"" + SYMBOLS[random.nextInt(SYMBOLS.length)] + "\",\"price\":" + price
                                + ",\"account\":\"ACC-" + (1 + random.nextInt(4)) * 1001 + "\",\"userid\":\"User_"
                                + (1 + random.nextInt(9))
                                + "\",\"produced_at_ms\":" + (1_700_000_000_000L + i) + "}";
                producer.send(new ProducerRecord<>(
                        TOPIC,
                        String.valueOf(price).getBytes(StandardCharsets.UTF_8),
                        value.getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }
}
