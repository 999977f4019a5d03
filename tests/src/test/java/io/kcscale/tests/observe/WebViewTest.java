package io.kcscale.tests.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import io.kcscale.tests.fixtures.HeadlessChrome;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;

/**
 * The scaler's web view in headless Chromium against the real stack under load: it loads without a
 * console error, draws one throughput line per RUNNING task, shows the empty partitions a two-valued
 * key leaves, and its scale control moves the sink to 3 RUNNING tasks through the API, asking for the
 * bearer token when the scaler has one.
 */
@Order(8)
@ExtendWith(SharedStack.class)
class WebViewTest {

    private static final String SINK = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR;
    private static final Path SCREENSHOT = Path.of(System.getProperty("kcscale.home", ".."))
            .toAbsolutePath()
            .normalize()
            .resolve("docs/screenshot.png");
    private static final By TASK_SERIES = By.cssSelector("#task-chart path[data-series^='task-']");
    private static final By EMPTY = By.cssSelector("#partition-map [data-empty='true']");

    @Test
    @Order(1)
    void showsThePipelineLiveAndScalesItThroughTheApi(LocalStack stack) throws Exception {
        ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
        try (StackProbe probe = new StackProbe(stack);
                HeadlessChrome chrome = new HeadlessChrome()) {
            try {
                probe.updateConnector(
                        StackOptions.SOURCE_CONNECTOR, Map.of("iterations", "-1", "rate.per.task", "300"));
                // start from 2 tasks; Connect refuses config changes while the source's restart rebalances its workers
                Poll.until("the scaler to set 2 tasks", Duration.ofSeconds(90), Duration.ofSeconds(1), () -> {
                    ScalerHttp.Answer scaled = scaler.post(SINK + "/scale", "{\"tasks\":2}");
                    if (scaled.status() != 200) {
                        throw new IllegalStateException(scaled.status() + " " + scaled.raw());
                    }
                    return Optional.of(scaled);
                });
                chrome.driver.get(stack.endpoints().scalerUrl().resolve("/").toString());
                awaitSeriesForEveryRunningTask(chrome, probe, 2);
                assertEquals(List.of(), chrome.consoleErrors(), "the page loads without console errors");
                // a dry-run policy gives the decisions list something to show, and touches nothing
                assertEquals(
                        200,
                        scaler.put(
                                        SINK + "/autoscale",
                                        "{\"minTasks\":1,\"maxTasks\":3,\"targetLag\":100000,\"dryRun\":true}")
                                .status());

                WebElement tasks = chrome.driver.findElement(By.id("scale-tasks"));
                tasks.clear();
                tasks.sendKeys("3");
                chrome.driver.findElement(By.id("scale-button")).click();
                Poll.until("the scale control's answer", Duration.ofSeconds(90), Duration.ofMillis(250), () -> {
                    WebElement result = chrome.driver.findElement(By.id("scale-result"));
                    if ("refused".equals(result.getDomAttribute("data-outcome"))) {
                        throw new Poll.Abort("the page shows a refusal: " + result.getText());
                    }
                    return "done".equals(result.getDomAttribute("data-outcome"))
                            ? Optional.of(result.getText())
                            : Optional.empty();
                });
                assertEquals(
                        3,
                        probe.connect
                                .connectorStatus(StackOptions.SINK_CONNECTOR)
                                .tasksInState("RUNNING"));
                awaitSeriesForEveryRunningTask(chrome, probe, 3);

                // two key values hash to at most two of the 20 partitions: the rest must be drawn empty once the
                // window (30 s) no longer holds records keyed by price
                probe.updateConnector(StackOptions.SOURCE_CONNECTOR, Map.of("schema.keyfield", "side"));
                List<WebElement> empty = Poll.until(
                        "the page to draw 18 or more empty partitions",
                        Duration.ofSeconds(90),
                        Duration.ofSeconds(1),
                        () -> {
                            List<WebElement> cells = chrome.driver.findElements(EMPTY);
                            if (cells.size() < 18) {
                                throw new IllegalStateException(cells.size() + " empty partitions drawn");
                            }
                            return Optional.of(cells);
                        });
                assertTrue(
                        empty.get(0).getText().toLowerCase().contains("empty"),
                        empty.get(0).getText());
                assertTrue(empty.get(0).getDomAttribute("aria-label").contains("empty"), "the colour has words too");
                assertTrue(
                        chrome.driver
                                        .findElements(By.cssSelector("#partition-map [data-empty='false']"))
                                        .size()
                                >= 1,
                        "the partitions the two keys hash to still receive records");
                screenshot(chrome);
                assertEquals(List.of(), chrome.consoleErrors(), "no console errors while the page ran");
            } finally {
                probe.updateConnector(StackOptions.SOURCE_CONNECTOR, Map.of("schema.keyfield", "price"));
                scaler.delete(SINK + "/autoscale");
            }
        }
    }

    @Test
    @Order(2)
    void asksForTheBearerTokenWhenTheScalerWantsOne(LocalStack stack, @TempDir Path state) throws Exception {
        ScalerSettings settings = ScalerSettings.fromValues(Map.of(
                "connect.url", stack.endpoints().connectUrl().toString(),
                // a scaler of its own: replicas with one id share policies and a leader, the shared stack's included
                "scaler.cluster.id", "web-view-test",
                "kafka.bootstrap.servers", stack.endpoints().kafkaBootstrap(),
                "elasticsearch.url", stack.endpoints().elasticsearchUrl().toString(),
                "token", "s3cret",
                "state.dir", state.toString()));
        try (ScalerService service = new ScalerService(settings);
                ApiServer api = ApiServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(service));
                HeadlessChrome chrome = new HeadlessChrome()) {
            service.start();
            // the stack's sink by name: other tests' connectors may be listed before it
            chrome.driver.get(
                    "http://127.0.0.1:" + api.address().getPort() + "/?connector=" + StackOptions.SINK_CONNECTOR);
            WebElement tasks = chrome.driver.findElement(By.id("scale-tasks"));
            Poll.untilTrue(
                    "the page to show the sink's tasks.max",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    () -> !Optional.ofNullable(tasks.getDomProperty("value"))
                            .orElse("")
                            .isEmpty(),
                    () -> "the page says: "
                            + chrome.driver.findElement(By.id("status")).getText() + " " + chrome.consoleErrors());
            // the current tasks.max: the scale changes nothing, but must first get past the token
            chrome.driver.findElement(By.id("scale-button")).click();
            WebElement token = chrome.driver.findElement(By.id("token"));
            Poll.untilTrue(
                    "the page to ask for the token",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    token::isDisplayed,
                    () -> chrome.driver.findElement(By.id("scale-result")).getText());
            assertTrue(
                    chrome.driver.findElement(By.id("scale-result")).getText().startsWith("Refused (401)"));
            token.sendKeys("s3cret");
            chrome.driver.findElement(By.cssSelector("#token-form button")).click();
            Poll.untilTrue(
                    "the retried scale to go through",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    () -> "done"
                            .equals(chrome.driver
                                    .findElement(By.id("scale-result"))
                                    .getDomAttribute("data-outcome")),
                    () -> chrome.driver.findElement(By.id("scale-result")).getText());
            List<String> errors = chrome.consoleErrors();
            assertTrue(
                    errors.stream().allMatch(e -> e.contains("/scale") && e.contains("401")),
                    "the only console error is the refused request: " + errors);
        }
    }

    /** Waits until the per-task chart draws exactly as many task lines as Connect reports RUNNING tasks, {@code expected} of them. */
    private static void awaitSeriesForEveryRunningTask(HeadlessChrome chrome, StackProbe probe, int expected) {
        Poll.until(
                expected + " task lines in the per-task chart", Duration.ofSeconds(60), Duration.ofMillis(500), () -> {
                    long running = probe.connect
                            .connectorStatus(StackOptions.SINK_CONNECTOR)
                            .tasksInState("RUNNING");
                    int drawn = chrome.driver.findElements(TASK_SERIES).size();
                    if (running != expected || drawn != expected) {
                        throw new IllegalStateException(running + " tasks RUNNING, " + drawn
                                + " task lines drawn; the page says: "
                                + chrome.driver.findElement(By.id("status")).getText() + " " + chrome.consoleErrors());
                    }
                    return Optional.of(drawn);
                });
    }

    /** The whole page, for README.md and docs/web-view.md (docs/screenshot.png): a window as tall as the page, 1280 wide as laid out. */
    private static void screenshot(HeadlessChrome chrome) throws Exception {
        long height = (Long) chrome.driver.executeScript(
                "return document.documentElement.scrollHeight + window.outerHeight - window.innerHeight");
        chrome.driver.manage().window().setSize(new Dimension(1280, (int) height));
        Files.createDirectories(SCREENSHOT.getParent());
        Files.write(SCREENSHOT, chrome.driver.getScreenshotAs(OutputType.BYTES));
        System.out.println("[measure] web view screenshot " + SCREENSHOT);
    }
}
