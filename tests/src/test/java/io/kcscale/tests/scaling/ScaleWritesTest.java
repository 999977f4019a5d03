package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.common.ConnectorPath;
import io.kcscale.scaler.connect.ConnectTasksMaxWriter;
import io.kcscale.scaler.connect.HttpWorkerProbe;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.scale.ScaleAction;
import io.kcscale.scaler.scale.ScaleRequest;
import io.kcscale.scaler.scale.ScaleResult;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import io.kcscale.tests.fixtures.CliInProcess;
import io.kcscale.tests.fixtures.HeadlessChrome;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * A scale among other writers, on the real stack: scratch sinks (on empty topics, so no load and no
 * pause to wait out) scaled by the stack's scaler, a second scaler, and the scale action itself with
 * another actor's move landed exactly between its read and its write. Nothing another writer did is
 * undone, a deleted connector stays deleted, and any name Connect accepts can be addressed.
 */
@Order(8)
@ExtendWith(SharedStack.class)
class ScaleWritesTest {

    private static final Duration CONVERGE = Duration.ofSeconds(60);
    /** A space, {@code +} and non-ASCII: Connect takes such a name in a path, so it can be read and changed by name. */
    private static final String ODD = "writes a+b ü-sink";
    /**
     * {@code %} and {@code /}, and a literal {@code %2F} that a second decoding would turn into a slash: Connect creates
     * such a connector but its web server refuses the name in any path, so it can be read (Connect's listing) but
     * not changed by name.
     */
    private static final String UNADDRESSABLE = "writes 50% %2F/x-sink";

    @Test
    @Order(1)
    void anyNameConnectAcceptsIsReachedThroughTheRestApiTheCliAndThePage(LocalStack stack) throws Exception {
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.topic("scale-writes-odd", 4);
            scratch.sink(ODD, "scale-writes-odd", "scale-writes-odd", 1);
            scratch.postedSink(UNADDRESSABLE, "scale-writes-odd", "scale-writes-odd-2", 1);
            scratch.awaitRunning(ODD, 1);
            ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
            String url = stack.endpoints().scalerUrl().toString();

            for (String name : List.of(ODD, UNADDRESSABLE)) {
                String path = "/api/v1/connectors/" + ConnectorPath.segment(name);
                JsonNode snapshot =
                        Poll.until("the scaler to observe " + name, CONVERGE, Duration.ofMillis(500), () -> {
                            ScalerHttp.Answer a = scaler.get(path);
                            if (a.status() != 200) {
                                throw new IllegalStateException(a.status() + " " + a.raw());
                            }
                            return Optional.of(a.body());
                        });
                assertEquals(name, snapshot.path("name").asText());
                CliInProcess.Run status = CliInProcess.run("status", name, "--scaler-url", url);
                assertEquals(0, status.exit(), status.err());
                assertTrue(status.out().startsWith(name + "  topics scale-writes-odd"), status.out());
                ScalerHttp.Answer unknown = scaler.post(path + "x/scale", "{\"tasks\":2}");
                assertEquals(404, unknown.status(), unknown.raw());
            }

            String path = "/api/v1/connectors/" + ConnectorPath.segment(ODD);
            ScalerHttp.Answer scaled = scaler.post(path + "/scale", "{\"tasks\":2}");
            assertEquals(200, scaled.status(), scaled.raw());
            assertEquals(ODD, scaled.body().path("connector").asText());
            assertEquals("2", scratch.probe.connect.connectorConfig(ODD).get("tasks.max"));
            CliInProcess.Run scale = CliInProcess.run("scale", ODD, "--tasks", "1", "--scaler-url", url);
            assertEquals(0, scale.exit(), scale.err());
            assertTrue(scale.out().startsWith(ODD + ": tasks.max 2 -> 1, 1 tasks RUNNING"), scale.out());

            ScalerHttp.Answer refused = scaler.post(
                    "/api/v1/connectors/" + ConnectorPath.segment(UNADDRESSABLE) + "/scale", "{\"tasks\":2}");
            assertEquals(422, refused.status(), refused.raw());
            assertTrue(
                    refused.body()
                            .path("error")
                            .asText()
                            .startsWith("Kafka Connect cannot address " + UNADDRESSABLE + " by name (GET /connectors/"),
                    refused.raw());
            CliInProcess.Run refusedCli = CliInProcess.run("scale", UNADDRESSABLE, "--tasks", "2", "--scaler-url", url);
            assertEquals(1, refusedCli.exit(), refusedCli.out());
            assertTrue(
                    refusedCli.err().contains("refused (422): Kafka Connect cannot address " + UNADDRESSABLE),
                    refusedCli.err());

            try (HeadlessChrome chrome = new HeadlessChrome()) {
                chrome.driver.get(url + "?connector=" + URLEncoder.encode(UNADDRESSABLE, StandardCharsets.UTF_8));
                WebElement pageStatus = chrome.driver.findElement(By.id("status"));
                Poll.untilTrue(
                        "the page to show " + UNADDRESSABLE,
                        CONVERGE,
                        Duration.ofMillis(250),
                        () -> pageStatus.getText().startsWith(UNADDRESSABLE + " as observed"),
                        pageStatus::getText);
                Poll.untilTrue(
                        "the page to show the checks of " + UNADDRESSABLE,
                        CONVERGE,
                        Duration.ofMillis(250),
                        () -> !chrome.driver
                                .findElements(By.cssSelector("#finding-list [data-check='key-cardinality']"))
                                .isEmpty(),
                        () -> chrome.driver.findElement(By.id("finding-list")).getText());

                chrome.driver.get(url + "?connector=" + URLEncoder.encode(ODD, StandardCharsets.UTF_8));
                WebElement oddStatus = chrome.driver.findElement(By.id("status"));
                Poll.untilTrue(
                        "the page to show " + ODD,
                        CONVERGE,
                        Duration.ofMillis(250),
                        () -> oddStatus.getText().startsWith(ODD + " as observed"),
                        oddStatus::getText);
                WebElement tasks = chrome.driver.findElement(By.id("scale-tasks"));
                tasks.clear();
                tasks.sendKeys("2");
                chrome.driver.findElement(By.id("scale-button")).click();
                WebElement result = chrome.driver.findElement(By.id("scale-result"));
                Poll.untilTrue(
                        "the page's scale to go through",
                        CONVERGE,
                        Duration.ofMillis(250),
                        () -> "done".equals(result.getDomAttribute("data-outcome")),
                        result::getText);
                assertTrue(result.getText().startsWith(ODD + ": tasks.max 1 → 2"), result.getText());
                assertEquals("2", scratch.probe.connect.connectorConfig(ODD).get("tasks.max"));
                assertEquals(List.of(), chrome.consoleErrors(), "every request of the page found its connector");
            }
        }
    }

    @Test
    @Order(2)
    void twoScalersScaleOneConnectorAtOnceOneWinsAndTheOtherSaysWhy(LocalStack stack, @TempDir Path state)
            throws Exception {
        String sink = "scale-writes-race";
        try (ScratchPipeline scratch = new ScratchPipeline(stack);
                ScalerService second = new ScalerService(ScalerSettings.fromValues(Map.of(
                        "connect.url", stack.endpoints().connectUrl().toString(),
                        // a scaler of its own: replicas with one id share policies and a leader, the shared stack's
                        // included
                        "scaler.cluster.id", "scale-writes-test",
                        "kafka.bootstrap.servers", stack.endpoints().kafkaBootstrap(),
                        "elasticsearch.url",
                                stack.endpoints().elasticsearchUrl().toString(),
                        "state.dir", state.toString())));
                ApiServer api = ApiServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(second))) {
            second.start();
            scratch.topic(sink, 4);
            scratch.sink(sink, sink, sink, 1);
            scratch.awaitRunning(sink, 1);
            ScalerHttp first = new ScalerHttp(stack.endpoints().scalerUrl());
            ScalerHttp other = new ScalerHttp(
                    URI.create("http://127.0.0.1:" + api.address().getPort()));
            String path = "/api/v1/connectors/" + sink + "/scale";

            CompletableFuture<ScalerHttp.Answer> toTwo =
                    CompletableFuture.supplyAsync(() -> first.post(path, "{\"tasks\":2}"));
            CompletableFuture<ScalerHttp.Answer> toThree =
                    CompletableFuture.supplyAsync(() -> other.post(path, "{\"tasks\":3}"));
            // no edit of another key in the same instant: Connect merged such a PATCH, sent beside the scales', onto a
            // config without it once (a fresh-clone run); an edit between a scale's read and its write is order 4's
            List<ScalerHttp.Answer> answers = List.of(toTwo.get(3, TimeUnit.MINUTES), toThree.get(3, TimeUnit.MINUTES));

            List<ScalerHttp.Answer> won =
                    answers.stream().filter(a -> a.status() == 200).toList();
            assertEquals(1, won.size(), "exactly one scale wins: " + answers);
            ScalerHttp.Answer lost =
                    answers.stream().filter(a -> a.status() != 200).findFirst().orElseThrow();
            assertEquals(409, lost.status(), lost.raw());
            assertTrue(lost.body().path("error").asText().startsWith("tasks.max of " + sink), lost.raw());
            System.out.println(
                    "[measure] two scalers at once: " + won.get(0).body().path("after") + " won; the other said: "
                            + lost.body().path("error").asText());
            int winner = won.get(0).body().path("after").asInt();
            assertEquals(winner, won.get(0).body().path("tasksRunning").asInt());
            Map<String, String> config = scratch.probe.connect.connectorConfig(sink);
            assertEquals(String.valueOf(winner), config.get("tasks.max"));
            scratch.awaitRunning(sink, winner);
        }
    }

    @Test
    @Order(3)
    void aManualScaleUnderAnActivePolicyIsRefusedNamingItUnlessForcedWhichPausesThePolicy(LocalStack stack)
            throws Exception {
        String sink = "scale-writes-policy";
        ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
        String path = "/api/v1/connectors/" + sink;
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.topic(sink, 4);
            scratch.sink(sink, sink, sink, 1);
            scratch.awaitRunning(sink, 1);
            // a target no empty topic reaches: the policy holds, and only the rule under test acts
            ScalerHttp.Answer policy =
                    scaler.put(path + "/autoscale", "{\"minTasks\":1,\"maxTasks\":4,\"targetLag\":1000000}");
            assertEquals(200, policy.status(), policy.raw());
            try {
                ScalerHttp.Answer refused = scaler.post(path + "/scale", "{\"tasks\":2}");
                assertEquals(409, refused.status(), refused.raw());
                assertEquals(
                        sink
                                + " is under an active autoscale policy (minTasks 1, maxTasks 4, targetLag 1000000) that would"
                                + " undo a manual scale: stop it (DELETE /api/v1/connectors/{name}/autoscale, or kcscale autoscale "
                                + sink
                                + " --stop), or pass force to pause it and scale",
                        refused.body().path("error").asText());
                assertEquals("1", scratch.probe.connect.connectorConfig(sink).get("tasks.max"));

                ScalerHttp.Answer forced = scaler.post(path + "/scale", "{\"tasks\":2,\"force\":true}");
                assertEquals(200, forced.status(), forced.raw());
                assertTrue(
                        forced.body().path("autoscale").asText().startsWith("paused the autoscale policy of " + sink),
                        forced.raw());
                assertEquals("2", scratch.probe.connect.connectorConfig(sink).get("tasks.max"));
                assertTrue(
                        scaler.get(path + "/autoscale")
                                .body()
                                .path("policy")
                                .path("dryRun")
                                .asBoolean(),
                        "the policy runs on as a dry run");
                assertEquals(
                        200,
                        scaler.post(path + "/scale", "{\"tasks\":1}").status(),
                        "a paused policy lets a scale through");
            } finally {
                scaler.delete(path + "/autoscale");
            }
        }
    }

    @Test
    @Order(4)
    void anEditLandedBetweenTheReadAndTheWriteSurvivesAndADeletedConnectorIsNotCreatedAgain(LocalStack stack)
            throws Exception {
        String sink = "scale-writes-interleaved";
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.topic(sink, 4);
            scratch.sink(sink, sink, sink, 1);
            scratch.awaitRunning(sink, 1);
            ConnectApi connect = scratch.probe.connect;

            ScaleResult edited = action(
                            new InterleavedConnect(
                                    connect,
                                    () -> scratch.probe.updateConnector(sink, Map.of("errors.log.enable", "true"))),
                            scratch)
                    .scale(sink, new ScaleRequest(2, false, false));
            assertEquals(2, edited.tasksRunning());
            Map<String, String> config = connect.connectorConfig(sink);
            assertEquals("true", config.get("errors.log.enable"), "the edit survives the scale");
            assertEquals("2", config.get("tasks.max"));

            ScaleAction deleting =
                    action(new InterleavedConnect(connect, () -> connect.deleteConnector(sink)), scratch);
            ScalerException gone =
                    assertThrows(ScalerException.class, () -> deleting.scale(sink, new ScaleRequest(3, false, false)));
            assertEquals(ScalerException.Problem.GONE, gone.problem());
            assertEquals(sink + " was deleted while the scale ran; it was not re-created", gone.getMessage());
            assertFalse(connect.connectors().contains(sink), "the deleted connector stays deleted");
        }
    }

    /** The scale action as the scaler wires it, minus the checks and the pause (empty topics: nothing to sample or measure). */
    private static ScaleAction action(ConnectApi connect, ScratchPipeline scratch) {
        return new ScaleAction(
                connect,
                new ConnectTasksMaxWriter(connect),
                scratch.probe.kafka::partitionCount,
                index -> {
                    throw new IllegalStateException("no pause to measure on an empty topic");
                },
                SinkIndexes.none(),
                connector -> Optional.empty(),
                (snapshot, tasks) -> List.of(),
                new HttpWorkerProbe("http", Duration.ofSeconds(2), null),
                100,
                CONVERGE,
                System::currentTimeMillis);
    }
}
