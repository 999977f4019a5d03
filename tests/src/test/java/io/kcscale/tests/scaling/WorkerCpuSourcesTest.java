package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.InProcessScaler;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.WorkerExporters;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code worker-capacity} reads each worker where its CPU is published, with the scaler's reading of processes
 * switched off: through the JMX exporter every shared-stack worker runs ({@code up --prometheus} attaches it), and
 * through the stack's real Prometheus. An exporter URL that answers something else leaves that worker unknown in
 * one line while the other is read. And a worker truly saturated, by a CPU-heavy single message transform on a
 * sink, with one processor to its name (as a container's limit gives it), still refuses a scale onto it, where the
 * machine's other work leaves it that processor.
 */
@Order(9)
@ExtendWith(SharedStack.class)
class WorkerCpuSourcesTest {

    private static final String SINK = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR;
    /** Past the JVMs' warm-up, which the readings wait out, with room for a loaded machine. */
    private static final Duration READ = Duration.ofSeconds(180);

    private static final int PARTITIONS = 6;

    @Test
    @Order(1)
    void everyWorkerIsReadThroughItsExporterWithProcessesOff(LocalStack stack) throws Exception {
        try (InProcessScaler scaler = InProcessScaler.start(stack, WorkerExporters.exporterSettings(stack))) {
            JsonNode workers = readByAll(scaler, stack, "exporter");
            for (JsonNode w : workers) {
                assertEquals(
                        Runtime.getRuntime().availableProcessors(),
                        w.path("hostProcessors").asInt(),
                        w.toString());
                double cores = w.path("processCores").asDouble(-1);
                assertTrue(cores >= 0 && cores <= w.path("hostProcessors").asInt() + 0.5, w.toString());
            }
        }
    }

    @Test
    @Order(2)
    void everyWorkerIsReadThroughPrometheus(LocalStack stack) throws Exception {
        try (InProcessScaler scaler = InProcessScaler.start(stack, WorkerExporters.prometheusSettings(stack))) {
            for (JsonNode w : readByAll(scaler, stack, "prometheus")) {
                assertEquals(
                        Runtime.getRuntime().availableProcessors(),
                        w.path("hostProcessors").asInt(),
                        w.toString());
            }
        }
    }

    @Test
    @Order(3)
    void anExporterUrlThatAnswersGarbageIsOneLineAndTheOtherWorkerIsRead(LocalStack stack) throws Exception {
        List<URI> urls = new ArrayList<>(WorkerExporters.of(stack));
        // the second worker's "exporter" is its Connect REST root: a real endpoint answering JSON, not metrics
        urls.set(1, stack.endpoints().connectUrls().get(1).resolve("/"));
        String garbage = WorkerExporters.workerId(stack, 1);
        try (InProcessScaler scaler = InProcessScaler.start(
                stack,
                Map.of("worker.cpu.source", "exporter", "worker.metrics.urls", WorkerExporters.pairs(stack, urls)))) {
            JsonNode finding =
                    Poll.until("the first worker read through its exporter", READ, Duration.ofSeconds(2), () -> {
                        JsonNode f = capacity(scaler);
                        if (!f.path("evidence")
                                .path("workers")
                                .path(WorkerExporters.workerId(stack, 0))
                                .path("source")
                                .asText()
                                .equals("exporter")) {
                            throw new IllegalStateException("read " + f);
                        }
                        return Optional.of(f);
                    });
            assertEquals("info", finding.path("severity").asText(), finding.toString());
            String why = finding.path("evidence")
                    .path("workers")
                    .path(garbage)
                    .path("unknown")
                    .asText();
            assertTrue(
                    why.startsWith(
                            "exporter: " + urls.get(1) + " answered no Prometheus metrics (it begins \"{\"version\":"),
                    why);
            assertTrue(
                    finding.path("title").asText().contains("the CPU of worker " + garbage + " ("), finding.toString());
            // the scaler serves on: other connectors' snapshots and the whole list
            assertEquals(200, scaler.http.get("/api/v1/connectors").status());
            assertEquals(200, scaler.http.get(SINK).status());
        }
    }

    @Test
    @Order(4)
    void aWorkerSaturatedByACpuHeavyTransformIsStillRefused(LocalStack stack) throws Exception {
        // a worker's process gets its fair share of a processor at most: on a machine whose other sessions keep every
        // core
        // queued several deep, no process here can use most of one, and what would be judged is their load
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage();
        Assumptions.assumeTrue(
                load < 2 * Runtime.getRuntime().availableProcessors(),
                "the machine's load average is " + load + " on "
                        + Runtime.getRuntime().availableProcessors()
                        + " processors: no worker here can be saturated by its own work");
        String topic = "a".repeat(40) + "-z";
        String sink = "cpu-heavy-sink";
        Path output = Files.createDirectories(Path.of("target", "worker-cpu").toAbsolutePath())
                .resolve(sink + ".txt");
        Files.deleteIfExists(output);
        try (ScratchPipeline scratch = new ScratchPipeline(stack);
                KafkaProducer<String, String> producer = new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                stack.endpoints().kafkaBootstrap()),
                        new StringSerializer(),
                        new StringSerializer());
                InProcessScaler scaler = InProcessScaler.start(stack, WorkerExporters.exporterSettings(stack))) {
            scratch.topic(topic, PARTITIONS);
            // a filter whose predicate matches the topic's name by a regex that backtracks polynomially: a good part of
            // a second of one core per record, all in the task's thread (as a costly transform of a real pipeline
            // spends it);
            // the name does not match, so every record goes on into the file, whose lines count what was consumed
            Map<String, String> config = new LinkedHashMap<>(Map.of(
                    "connector.class",
                    "org.apache.kafka.connect.file.FileStreamSinkConnector",
                    "tasks.max",
                    "1",
                    "topics",
                    topic,
                    "file",
                    output.toString(),
                    "key.converter",
                    "org.apache.kafka.connect.storage.StringConverter",
                    "value.converter",
                    "org.apache.kafka.connect.storage.StringConverter",
                    "transforms",
                    "heavy",
                    "transforms.heavy.type",
                    "org.apache.kafka.connect.transforms.Filter",
                    "transforms.heavy.predicate",
                    "name"));
            config.put("predicates", "name");
            config.put("predicates.name.type", "org.apache.kafka.connect.transforms.predicates.TopicNameMatches");
            config.put("predicates.name.pattern", "(.*a){7}");
            scratch.connector(sink, config);
            scratch.awaitRunning(sink, 1);
            String worker =
                    scratch.probe.connect.connectorStatus(sink).tasks().get(0).workerId();
            long pid = stack.component("connect-" + indexOf(stack, worker)).pid();
            String scale = "/api/v1/connectors/" + sink + "/scale";
            long[] sent = {0};
            int[] batch = {PARTITIONS};
            try {
                ScalerHttp.Answer refused =
                        Poll.until("a scale onto the saturated worker refused", READ, Duration.ofSeconds(1), () -> {
                            // one processor for the worker, as a container limit gives it (threads started since
                            // included)
                            limitToOneProcessor(pid);
                            // records (each key new: key-cardinality must not be what refuses) whenever the task is
                            // within a batch of
                            // caught up, the batch doubled each time it idled: it always has some to chew on, whatever
                            // a record
                            // costs once compiled, and leaves little behind when the test ends
                            long consumed = lines(output);
                            if (consumed >= sent[0] - batch[0]) {
                                if (consumed >= sent[0] && sent[0] > 0) {
                                    batch[0] = Math.min(2 * batch[0], 4096);
                                }
                                for (int i = 0; i < batch[0]; i++) {
                                    producer.send(new ProducerRecord<>(
                                            topic, (int) (sent[0] % PARTITIONS), "key-" + sent[0], "{}"));
                                    sent[0]++;
                                }
                                producer.flush();
                            }
                            ScalerHttp.Answer a = scaler.http.post(scale, "{\"tasks\":5,\"dryRun\":true}");
                            if (a.status() != 422 || !a.raw().contains("CPU-bound worker " + worker)) {
                                throw new IllegalStateException("answered " + a.status() + ": " + a.raw());
                            }
                            return Optional.of(a);
                        });
                assertTrue(
                        refused.raw().contains("of 1 cores") && refused.raw().contains("from exporter"), refused.raw());
            } finally {
                release(pid);
            }
        }
    }

    /** Polls the sink's checks until every worker of the group is read from {@code source}; their evidence. */
    private static JsonNode readByAll(InProcessScaler scaler, LocalStack stack, String source) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < stack.endpoints().connectUrls().size(); i++) {
            ids.add(WorkerExporters.workerId(stack, i));
        }
        JsonNode finding = Poll.until("every worker read from " + source, READ, Duration.ofSeconds(2), () -> {
            JsonNode f = capacity(scaler);
            JsonNode workers = f.path("evidence").path("workers");
            if (!ids.stream()
                    .allMatch(id -> workers.path(id).path("source").asText().equals(source))) {
                throw new IllegalStateException("read " + f);
            }
            return Optional.of(f);
        });
        assertTrue(!finding.path("title").asText().contains("unknown"), finding.toString());
        return finding.path("evidence").path("workers");
    }

    private static JsonNode capacity(InProcessScaler scaler) {
        ScalerHttp.Answer a = scaler.http.get(SINK + "/checks?sampleRecords=100&sampleSeconds=1");
        assertEquals(200, a.status(), a.raw());
        return ScalingChecksTest.finding(a.body(), "worker-capacity");
    }

    private static int indexOf(LocalStack stack, String workerId) {
        for (int i = 0; i < stack.endpoints().connectUrls().size(); i++) {
            if (WorkerExporters.workerId(stack, i).equals(workerId)) {
                return i;
            }
        }
        throw new AssertionError(
                "no worker " + workerId + " in " + stack.endpoints().connectUrls());
    }

    /** Pins every thread of the process to processor 0: its JVM then counts one processor, as in a container limited to one. */
    private static void limitToOneProcessor(long pid) {
        affinity(pid, "0");
    }

    /** Every processor back. */
    private static void release(long pid) {
        affinity(pid, "0-" + (Runtime.getRuntime().availableProcessors() - 1));
    }

    private static void affinity(long pid, String processors) {
        try {
            run("taskset", "-a", "-p", "-c", processors, String.valueOf(pid));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Poll.Abort("interrupted");
        }
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            return 0;
        }
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish within 10 s");
        }
    }
}
