package io.kcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import io.kcscale.scaler.api.Json;
import io.kcscale.scaler.checks.CheckReport;
import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;

/** {@code kcscale check} against a stand-in scaler that answers a fixed report. */
class CheckCommandTest {

    private HttpServer scaler;
    private final AtomicReference<CheckReport> answer = new AtomicReference<>();
    private final AtomicReference<String> asked = new AtomicReference<>();

    @BeforeEach
    void start() throws IOException {
        scaler = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        scaler.createContext("/", exchange -> {
            asked.set(exchange.getRequestURI().toString());
            byte[] body = Json.write(answer.get()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        scaler.start();
    }

    @AfterEach
    void stop() {
        scaler.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + scaler.getAddress().getPort();
    }

    private static Finding finding(String id, Severity severity, String advice) {
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("partitions", 20);
        evidence.put("idleTasks", List.of(2));
        return new Finding(id, severity, id + " title", evidence, advice);
    }

    @Test
    void nothingWorseThanInfoExitsZeroWithAReadableReport() {
        answer.set(CheckReport.of("my sink", 3, List.of(finding("key-cardinality", Severity.OK, "keep it"),
                finding("rebalance-config", Severity.INFO, "line one\nline two"))));
        CliRun run = CliRun.of("check", "my sink", "--scaler-url", url(), "--sample-records", "500", "--sample-seconds", "2");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("/api/v1/connectors/my%20sink/checks?sampleRecords=500&sampleSeconds=2.0", asked.get());
        assertTrue(run.out().startsWith("my sink: 1 info, 1 ok (judged for 3 tasks)"), run.out());
        assertTrue(run.out().contains("OK        key-cardinality   key-cardinality title"), run.out());
        assertTrue(run.out().contains("evidence: partitions=20, idleTasks=[2]"), run.out());
        assertTrue(!run.out().contains("keep it"), "an ok finding needs no advice printed: " + run.out());
        assertTrue(run.out().contains("advice: line one" + System.lineSeparator() + "            line two"), run.out());
    }

    @Test
    void aWarningOrWorseExitsOne() {
        answer.set(CheckReport.of("s", 3, List.of(finding("index-shards", Severity.WARNING, "split"))));
        assertEquals(1, CliRun.of("check", "s", "--scaler-url", url()).exitCode());
        answer.set(CheckReport.of("s", 3, List.of(finding("key-cardinality", Severity.CRITICAL, "rekey"))));
        CliRun json = CliRun.of("check", "s", "--scaler-url", url(), "--json");
        assertEquals(1, json.exitCode());
        assertTrue(json.out().contains("\"severity\" : \"critical\""), json.out());
        assertTrue(asked.get().endsWith("?sampleRecords=100000&sampleSeconds=5.0"), "the defaults are sent: " + asked.get());
    }

    @Test
    void aBadBudgetIsOneLineNamingTheFlag() {
        CliRun run = CliRun.of("check", "s", "--scaler-url", url(), "--sample-records", "0");
        assertEquals(2, run.exitCode());
        assertEquals("kcscale check: --sample-records must be a whole number from 1 to 10000000, got 0", run.err().strip());
    }

    @Test
    void anAbsentScalerIsOneLineAndExitOne() {
        scaler.stop(0);
        CliRun run = CliRun.of("check", "s", "--scaler-url", url());
        assertEquals(1, run.exitCode());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().contains("does not answer"), run.err());
    }
}
