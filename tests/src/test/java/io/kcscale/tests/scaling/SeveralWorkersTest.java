package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.connect.HttpWorkerProbe;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.tests.fixtures.IndexProgress;
import io.kcscale.tests.fixtures.OwnStack;
import io.kcscale.tests.fixtures.RepositoryFiles;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.StackProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A group of three Connect workers under load, one killed with SIGKILL: the scaler's per-task view names each
 * task's worker; once the dead worker is silent it shows its tasks WORKER_UNREACHABLE (Connect still says RUNNING),
 * the stability check names the worker, the autoscaler holds and a manual scale is refused unless forced; when
 * Connect has given the tasks to the two live workers (after its session timeout and the workers' 10 s
 * {@code scheduled.rebalance.max.delay.ms}, which the launcher tells the scaler) the view shows them back and
 * stability returns; every record of the topic ends indexed. Prints how long indexing of the dead tasks'
 * partitions stopped.
 */
@Order(24)
@ExtendWith(OwnStack.class)
class SeveralWorkersTest {

    private static final String SINK = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR;
    /** Low enough that the per-record sink keeps up on a loaded two-core machine (it indexed ~15/s per task at load 50). */
    private static final double RATE = 30;

    private static final String UNREACHABLE = "WORKER_UNREACHABLE";

    @Test
    void aKilledWorkerIsReportedHeldAgainstAndItsTasksComeBackOnTheLiveWorkers() throws Exception {
        Path home = RepositoryFiles.home();
        StackOptions options = StackOptions.builder(home)
                .dataDir(home.resolve("tests/target/e2e-workers-stack"))
                .freePorts()
                .fresh(true)
                .workers(3)
                .sinkTasks(3)
                .partitions(12)
                .ratePerSecond(RATE)
                .commitIntervalMs(StackOptions.QUICK_COMMIT_INTERVAL_MS)
                .build();
        try (LocalStack stack = LocalStack.start(options, m -> System.out.println("[workers stack] " + m));
                StackProbe probe = new StackProbe(stack);
                IndexProgress progress = new IndexProgress(stack, StackOptions.INDEX)) {
            ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
            Map<String, String> componentByWorker = new java.util.HashMap<>();
            for (int i = 0; i < stack.endpoints().connectUrls().size(); i++) {
                componentByWorker.put(stack.endpoints().connectUrls().get(i).getAuthority(), "connect-" + i);
            }

            // the per-task view spans the group: each task names the worker Connect placed it on
            JsonNode view = scaler.awaitGet(
                    SINK,
                    s -> runningOn(s, componentByWorker.keySet()).size() == 3
                            && consuming(s)
                            && s.path("rates").path("indexPerSecond").asDouble() > 0,
                    Duration.ofSeconds(120));
            Set<String> hosting =
                    new TreeSet<>(runningOn(view, componentByWorker.keySet()).values());
            assertTrue(hosting.size() >= 2, "three tasks on three workers span more than one: " + view.path("tasks"));
            assertEquals(
                    Set.of(),
                    new HttpWorkerProbe("http", Duration.ofSeconds(2), null).unanswered(componentByWorker.keySet()),
                    "every live worker answers the probe");

            // the victim: a worker hosting a sink task, not the one the scaler asks (connect-0), nor the source's task
            String sourceWorker = probe.connect
                    .connectorStatus(StackOptions.SOURCE_CONNECTOR)
                    .tasks()
                    .get(0)
                    .workerId();
            String scalerWorker = stack.endpoints().connectUrl().getAuthority();
            String victim = hosting.stream()
                    .filter(w -> !w.equals(scalerWorker) && !w.equals(sourceWorker))
                    .findFirst()
                    .orElseGet(() -> hosting.stream()
                            .filter(w -> !w.equals(scalerWorker))
                            .findFirst()
                            .orElseThrow());
            List<Integer> victimTasks = new ArrayList<>();
            List<Integer> victimPartitions = new ArrayList<>();
            view.path("tasks").forEach(t -> {
                if (victim.equals(t.path("workerId").asText())) {
                    victimTasks.add(t.path("id").asInt());
                    t.path("partitions").forEach(p -> victimPartitions.add(p.asInt()));
                }
            });
            System.out.printf(
                    "[workers] tasks on %s; killing %s (%s: tasks %s, partitions %s; the source's task is on %s)%n",
                    hosting, componentByWorker.get(victim), victim, victimTasks, victimPartitions, sourceWorker);
            Map<Integer, Long> committedAtKill =
                    probe.kafka.committedOffsets("connect-" + StackOptions.SINK_CONNECTOR, StackOptions.TOPIC);

            // an autoscale policy that scales at once (its minimum is above the tasks; a dry run, so nothing is
            // written)
            ScalerHttp.Answer put = scaler.put(
                    SINK + "/autoscale", "{\"minTasks\":4,\"maxTasks\":4,\"targetLag\":1000000,\"dryRun\":true}");
            assertEquals(200, put.status(), put.raw());
            awaitDecision(scaler, "bounds", 0);

            long killedAt = System.currentTimeMillis();
            stack.component(componentByWorker.get(victim)).kill();

            // the scaler does not trust Connect's RUNNING: it names the silent worker and marks its tasks
            JsonNode lost = scaler.awaitGet(
                    SINK,
                    s -> victimTasks.stream().allMatch(id -> UNREACHABLE.equals(taskState(s, id))),
                    Duration.ofSeconds(30));
            double detectedSeconds = secondsSince(killedAt);
            assertFalse(lost.path("stable").asBoolean());
            assertTrue(lost.path("unreachableWorkers").has(victim), lost.toString());
            assertTrue(
                    lost.path("reasons").toString().contains("worker " + victim + " has not answered"),
                    lost.path("reasons").toString());
            ConnectorStatus connectSays = probe.connect.connectorStatus(StackOptions.SINK_CONNECTOR);
            System.out.printf(
                    "[workers] %.1f s after the kill the scaler marks tasks %s %s; Connect says %s%n",
                    detectedSeconds, victimTasks, UNREACHABLE, connectSays.tasks());
            assertEquals(
                    Set.of(victim),
                    new HttpWorkerProbe("http", Duration.ofSeconds(2), null).unanswered(componentByWorker.keySet()),
                    "the probe against the real group: only the killed worker is silent");

            // a manual scale is refused naming the worker, unless forced (a dry run: nothing is written); the stability
            // check names it (a small key sample keeps the call short: Connect reassigns within ~20 s of the kill)
            long detectedAt = System.currentTimeMillis();
            ScalerHttp.Answer refused = scaler.post(SINK + "/scale", "{\"tasks\": 4, \"dryRun\": true}");
            assertEquals(422, refused.status(), refused.raw());
            assertTrue(refused.raw().contains("worker " + victim + " has not answered"), refused.raw());
            ScalerHttp.Answer checks = scaler.get(SINK + "/checks?sampleRecords=100&sampleSeconds=1");
            JsonNode stability = null;
            for (JsonNode f : checks.body().path("findings")) {
                stability = "stability".equals(f.path("id").asText()) ? f : stability;
            }
            assertTrue(
                    stability != null
                            && "warning".equals(stability.path("severity").asText())
                            && stability.path("title").asText().contains("worker " + victim),
                    checks.raw());
            String stabilityTitle = stability.path("title").asText();
            ScalerHttp.Answer forced =
                    scaler.post(SINK + "/scale", "{\"tasks\": 4, \"dryRun\": true, \"force\": true}");
            assertEquals(200, forced.status(), forced.raw());

            // Connect gives the tasks to the two live workers: the view shows them back
            Set<String> live = new TreeSet<>(componentByWorker.keySet());
            live.remove(victim);
            JsonNode back = scaler.awaitGet(SINK, s -> runningOn(s, live).size() == 3, Duration.ofSeconds(90));
            long backAt = System.currentTimeMillis();
            double tasksBackSeconds = (backAt - killedAt) / 1000.0;
            assertTrue(back.path("unreachableWorkers").isEmpty(), back.toString());
            System.out.printf(
                    "[workers] %.1f s after the kill the tasks run on %s%n", tasksBackSeconds, runningOn(back, live));

            // the autoscaler held while the worker was lost, and made no scale decision; once the tasks are back the
            // same
            // policy decides to scale again
            JsonNode hold = awaitDecision(scaler, "worker-unreachable", killedAt);
            assertTrue(hold.path("decision").path("reason").asText().contains(victim), hold.toString());
            assertTrue(
                    hold.path("decision").path("reason").asText().contains("assumed 10 s"),
                    "the launcher tells the scaler its workers' delay: " + hold);
            System.out.printf(
                    "[workers] the stability check said: %s; the autoscaler: %s%n",
                    stabilityTitle, hold.path("decision").path("reason").asText());
            awaitDecision(
                    scaler, "bounds", hold.path("decision").path("atMillis").asLong());
            for (JsonNode r : scaler.get(SINK + "/autoscale").body().path("decisions")) {
                JsonNode d = r.path("decision");
                long at = d.path("atMillis").asLong();
                assertFalse(
                        d.path("action").asText().startsWith("SCALE_") && at > detectedAt && at < backAt - 2_000,
                        "a scale decision while the worker was lost: " + r);
            }
            assertEquals(
                    "3",
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR).get("tasks.max"),
                    "nothing was scaled");
            assertEquals(200, scaler.delete(SINK + "/autoscale").status());

            // the dead tasks' partitions are consumed again: the gap in their indexing
            double resumedSeconds = Poll.until(
                    "the dead tasks' partitions to be committed past the kill",
                    Duration.ofSeconds(120),
                    Duration.ofMillis(250),
                    () -> {
                        Map<Integer, Long> now = probe.kafka.committedOffsets(
                                "connect-" + StackOptions.SINK_CONNECTOR, StackOptions.TOPIC);
                        boolean all = victimPartitions.stream()
                                .allMatch(p -> now.getOrDefault(p, 0L) > committedAtKill.getOrDefault(p, 0L));
                        if (all) {
                            return Optional.of(secondsSince(killedAt));
                        }
                        throw new IllegalStateException("committed at the kill " + committedAtKill + ", now " + now);
                    });
            // indexing goes on only while the source produces: when the victim also held the source's task, Connect
            // gives that one back too, on its own schedule
            Poll.untilTrue(
                    "the source's task running on a live worker",
                    Duration.ofSeconds(90),
                    Duration.ofMillis(250),
                    () -> {
                        ConnectorStatus.TaskStatus source = probe.connect
                                .connectorStatus(StackOptions.SOURCE_CONNECTOR)
                                .tasks()
                                .get(0);
                        return "RUNNING".equals(source.state()) && live.contains(source.workerId());
                    },
                    () -> "source " + probe.connect.connectorStatus(StackOptions.SOURCE_CONNECTOR));
            progress.awaitProgressAfter(System.currentTimeMillis(), Duration.ofSeconds(60));

            // stability returns once a whole window passes without the rebalance
            scaler.awaitGet(SINK, s -> s.path("stable").asBoolean(), Duration.ofSeconds(120));
            double stableSeconds = secondsSince(killedAt);

            // the load stops; every record of the topic ends indexed, once
            OptionalDouble fullRateSeconds = progress.secondsUntilRate(killedAt, RATE, Duration.ofSeconds(3));
            probe.connect.pauseConnector(StackOptions.SOURCE_CONNECTOR);
            long records = probe.awaitEverythingIndexed(0, Duration.ofSeconds(90));
            System.out.printf(
                    "[measure] several workers, kill -9 of 1 of 3 (load %.0f records/s, 3 sink tasks, worker"
                            + " scheduled.rebalance.max.delay.ms 10 s): scaler marked the tasks %s after %.1f s; tasks back on live workers"
                            + " after %.1f s; the dead tasks' partitions committed again after %.1f s; index back at the offered rate after"
                            + " %s; stable after %.1f s; %d records, all indexed%n",
                    RATE,
                    UNREACHABLE,
                    detectedSeconds,
                    tasksBackSeconds,
                    resumedSeconds,
                    fullRateSeconds.isPresent()
                            ? String.format("%.1f s", fullRateSeconds.getAsDouble())
                            : "(not within the run: the sink never outran the load)",
                    stableSeconds,
                    records);
        }
    }

    /** Task id → worker of each RUNNING task on one of {@code workers}. */
    private static Map<Integer, String> runningOn(JsonNode snapshot, Set<String> workers) {
        Map<Integer, String> on = new java.util.TreeMap<>();
        snapshot.path("tasks").forEach(t -> {
            if ("RUNNING".equals(t.path("state").asText())
                    && workers.contains(t.path("workerId").asText())) {
                on.put(t.path("id").asInt(), t.path("workerId").asText());
            }
        });
        return on;
    }

    /** Every task holds partitions of the sink group: the group has settled. */
    private static boolean consuming(JsonNode snapshot) {
        for (JsonNode t : snapshot.path("tasks")) {
            if (t.path("partitions").isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static String taskState(JsonNode snapshot, int id) {
        for (JsonNode t : snapshot.path("tasks")) {
            if (t.path("id").asInt() == id) {
                return t.path("state").asText();
            }
        }
        return null;
    }

    private static double secondsSince(long millis) {
        return (System.currentTimeMillis() - millis) / 1000.0;
    }

    /** Polls the decisions until one taken after {@code afterMillis} has the reason code {@code code}. */
    private static JsonNode awaitDecision(ScalerHttp scaler, String code, long afterMillis) {
        return Poll.until("a decision '" + code + "'", Duration.ofSeconds(60), Duration.ofSeconds(1), () -> {
            JsonNode state = scaler.get(SINK + "/autoscale").body();
            for (JsonNode r : state.path("decisions")) {
                if (r.path("decision").path("code").asText().equals(code)
                        && r.path("decision").path("atMillis").asLong() > afterMillis) {
                    return Optional.of(r);
                }
            }
            throw new IllegalStateException("decisions " + state.path("decisions"));
        });
    }
}
