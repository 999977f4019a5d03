package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.common.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebRoutesTest {

    /** Assets the page names: in index.html ({@code /assets/x}) and in the scripts' imports ({@code './x.js'}). */
    private static final Pattern REFERENCE = Pattern.compile("(?:/assets/|from '\\./)([a-zA-Z0-9.-]+)");

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static ApiServer server;

    @BeforeAll
    static void start() throws IOException {
        server = ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void thePageAndEveryAssetItReachesAreServedWithTheirTypes() throws Exception {
        HttpResponse<String> page = get("/");
        assertEquals(200, page.statusCode());
        assertEquals(
                "text/html; charset=utf-8",
                page.headers().firstValue("Content-Type").orElseThrow());
        Set<String> seen = new HashSet<>();
        Deque<String> bodies = new ArrayDeque<>();
        bodies.add(page.body());
        while (!bodies.isEmpty()) {
            Matcher reference = REFERENCE.matcher(bodies.pop());
            while (reference.find()) {
                String file = reference.group(1);
                if (seen.add(file)) {
                    HttpResponse<String> asset = get("/assets/" + file);
                    assertEquals(200, asset.statusCode(), file);
                    assertTrue(
                            asset.headers()
                                    .firstValue("Content-Type")
                                    .orElseThrow()
                                    .startsWith(file.endsWith(".css") ? "text/css" : "text/javascript"),
                            file);
                    bodies.add(asset.body());
                }
            }
        }
        assertTrue(
                seen.containsAll(Set.of("main.js", "style.css", "lineChart.js", "partitionMap.js")), seen.toString());
    }

    /** Path parameters once lived in the JDK server's exchange attributes, which its context shares: a page load got wrong files. */
    @Test
    void requestsAtOnceEachGetTheirOwnFile() throws Exception {
        List<String> files = List.of(
                "main.js",
                "api.js",
                "dom.js",
                "format.js",
                "decisions.js",
                "style.css",
                "lineChart.js",
                "taskChart.js");
        Map<String, String> alone = new HashMap<>();
        for (String file : files) {
            alone.put(file, get("/assets/" + file).body());
        }
        // 32 at once, below the server's request threads: more would be shed with 503, which is not what this tests
        for (int round = 0; round < 20; round++) {
            List<CompletableFuture<Void>> answers = new ArrayList<>();
            for (int copy = 0; copy < 4; copy++) {
                for (String file : files) {
                    answers.add(HTTP.sendAsync(request("/assets/" + file), HttpResponse.BodyHandlers.ofString())
                            .thenAccept(r -> {
                                assertEquals(200, r.statusCode(), file + " " + r.body());
                                assertEquals(alone.get(file), r.body(), file + " was answered with another file");
                            }));
                }
            }
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void thePageLoadsNothingFromElsewhere() throws Exception {
        assertTrue(
                !get("/").body().matches("(?s).*(src|href)=\"(https?:)?//.*"), "offline: no external script or style");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/assets/nope.js",
                "/assets/..%2Fapi%2Fopenapi.json",
                "/assets/..%2Findex.html",
                "/assets/Main.JS",
                "/assets/index.html"
            })
    void anythingElseUnderAssetsIsA404InJson(String path) throws Exception {
        HttpResponse<String> response = get(path);
        assertEquals(404, response.statusCode(), response.body());
        assertTrue(Json.MAPPER.readTree(response.body()).has("error"), response.body());
    }

    /** Jetty refuses an encoded NUL in any path before a route sees it; the JDK server let it reach the asset route's 404. */
    @Test
    void aNulInTheNameIsRefusedInJsonNeverServed() throws Exception {
        HttpResponse<String> response = get("/assets/main.js%00.css");
        assertEquals(400, response.statusCode(), response.body());
        assertTrue(Json.MAPPER.readTree(response.body()).has("error"), response.body());
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(request(path), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest request(String path) {
        InetSocketAddress address = server.address();
        return HttpRequest.newBuilder(URI.create("http://" + address.getHostString() + ":" + address.getPort() + path))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
    }
}
