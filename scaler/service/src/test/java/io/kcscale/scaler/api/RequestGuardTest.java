package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.common.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The browser rules and the path decoding, against a real server on a free port. */
class RequestGuardTest {

    private static final String PREDICTION = "{\"targetRate\":100,\"perTaskRate\":70}";
    private static ApiServer server;
    private static int port;

    @BeforeAll
    static void start() throws IOException {
        server = ApiServer.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                Optional.empty(),
                new ApiAccess(Set.of("https://ops.example.com"), Set.of("scaler", "proxy.example.com:443")));
        port = server.address().getPort();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "none",
            value = {
                "text/plain|415",
                "application/x-www-form-urlencoded|415",
                "multipart/form-data; boundary=x|415",
                "none|415",
                "application/json|200",
                "Application/JSON; charset=utf-8|200"
            })
    void aPostTakesOnlyAJsonBody(String contentType, int status) throws IOException {
        RawHttp answer = post("/api/v1/predict/tasks", contentType == null ? "" : "\r\nContent-Type: " + contentType);
        assertEquals(status, answer.status(), answer.body());
        if (status == 415) {
            assertEquals(
                    "POST takes a JSON body: send Content-Type: application/json"
                            + (contentType == null ? "" : ", not " + contentType),
                    error(answer));
        }
    }

    @Test
    void aPutNeedsJsonAndADeleteOnlyWhenItHasABody() throws IOException {
        String path = "/api/v1/connectors/stocks-es-sink/autoscale";
        assertEquals(
                415,
                RawHttp.send(
                                server.address(),
                                "PUT " + path + " HTTP/1.1\r\nHost: localhost:" + port + "\r\nContent-Type: text/plain",
                                "{}")
                        .status());
        // a DELETE is never a "simple" request: a browser asks first, and no page of another site is answered
        assertEquals(
                503,
                RawHttp.send(server.address(), "DELETE " + path + " HTTP/1.1\r\nHost: localhost:" + port, "")
                        .status());
        assertEquals(
                415,
                RawHttp.send(
                                server.address(),
                                "DELETE " + path + " HTTP/1.1\r\nHost: localhost:" + port
                                        + "\r\nContent-Type: text/plain",
                                "x")
                        .status());
    }

    @Test
    void aPageOfAnotherSiteCannotScaleEvenWithASimpleRequest() throws IOException {
        RawHttp answer = post(
                "/api/v1/connectors/stocks-es-sink/scale",
                "\r\nContent-Type: text/plain\r\nOrigin: http://evil.example");
        assertEquals(403, answer.status());
        assertEquals(
                "a page of http://evil.example may not call this scaler: only its own page may"
                        + " (allow another origin with --allowed-origin)",
                error(answer));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://127.0.0.1:{port}|200",
                "HTTP://127.0.0.1:{port}/|200",
                "http://localhost:{port}|403",
                "https://127.0.0.1:{port}|403",
                "http://127.0.0.1:1|403",
                "null|403",
                "http://evil.example|403",
                "https://ops.example.com|200",
                "https://ops.example.com:443|200",
                "http://ops.example.com|403"
            })
    void onlyTheScalersOwnOriginAndTheAllowedOnesMayCall(String origin, int status) throws IOException {
        String value = origin.replace("{port}", String.valueOf(port));
        RawHttp post = post("/api/v1/predict/tasks", "\r\nContent-Type: application/json\r\nOrigin: " + value);
        assertEquals(status, post.status(), post.body());
        // reads too: a page that got the scaler's data could read the pipeline
        RawHttp get = RawHttp.send(
                server.address(), "GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nOrigin: " + value, "");
        assertEquals(status, get.status());
    }

    @Test
    void anAllowedOriginIsAnsweredWithCorsHeadersAndItsPreflight() throws IOException {
        RawHttp post =
                post("/api/v1/predict/tasks", "\r\nContent-Type: application/json\r\nOrigin: https://ops.example.com");
        assertEquals(
                "https://ops.example.com",
                post.header("Access-Control-Allow-Origin").orElseThrow());
        RawHttp preflight = RawHttp.send(
                server.address(),
                "OPTIONS /api/v1/connectors/x/autoscale HTTP/1.1\r\nHost: 127.0.0.1:" + port
                        + "\r\nOrigin: https://ops.example.com\r\nAccess-Control-Request-Method: PUT",
                "");
        assertEquals(204, preflight.status());
        assertEquals(
                "DELETE, GET, PUT",
                preflight.header("Access-Control-Allow-Methods").orElseThrow());
        assertEquals(
                "Authorization, Content-Type",
                preflight.header("Access-Control-Allow-Headers").orElseThrow());
        RawHttp own = RawHttp.get(server.address(), "/openapi.json");
        assertTrue(own.header("Access-Control-Allow-Origin").isEmpty(), own.head());
        RawHttp ownPreflight = RawHttp.send(
                server.address(),
                "OPTIONS /api/v1/predict/tasks HTTP/1.1\r\nHost: 127.0.0.1:" + port
                        + "\r\nOrigin: http://evil.example\r\nAccess-Control-Request-Method: POST",
                "");
        assertEquals(403, ownPreflight.status());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "127.0.0.1:{port}|200",
                "localhost:{port}|200",
                "LOCALHOST:{port}|200",
                "[::1]:{port}|200",
                "10.1.2.3:{port}|200",
                "scaler:{port}|200",
                "proxy.example.com:443|200",
                "evil.example:{port}|421",
                "localhost.evil.example:{port}|421",
                "127.0.0.1.nip.io:{port}|421",
                "127.0.0.1:1|421",
                "localhost|421",
                "scaler:1|421",
                "proxy.example.com:{port}|421",
                "proxy.example.com|421",
                "999.0.0.1:{port}|421",
                "[::1|421"
            })
    void theHostHeaderMustNameTheScaler(String host, int status) throws IOException {
        String value = host.replace("{port}", String.valueOf(port));
        RawHttp answer = RawHttp.send(server.address(), "GET /openapi.json HTTP/1.1\r\nHost: " + value, "");
        assertEquals(status, answer.status(), answer.body());
        if (status == 421) {
            assertEquals(
                    "Host " + value.toLowerCase() + " does not name this scaler: call it by localhost or an IP address"
                            + " on port " + port + ", or allow the name with --allowed-host",
                    error(answer));
        }
    }

    @Test
    void aRequestWithoutHostIsRefused() throws IOException {
        RawHttp answer = RawHttp.send(server.address(), "GET /openapi.json HTTP/1.0", "");
        assertEquals(421, answer.status());
        assertTrue(error(answer).startsWith("the request has no Host header"), answer.body());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "a%20b.js|a b.js",
                "a+b.js|a+b.js",
                "a%2Bb.js|a+b.js",
                "100%25.js|100%.js",
                "a%2Fb.js|a/b.js",
                "%C3%A9t%C3%A9.js|été.js",
                "%E2%82%AC%F0%9F%98%80.js|€😀.js",
                "a%252F.js|a%2F.js"
            })
    void eachPathSegmentIsDecodedOnce(String raw, String name) throws IOException {
        RawHttp answer = RawHttp.get(server.address(), "/assets/" + raw);
        assertEquals(404, answer.status(), answer.body());
        assertEquals("no asset " + name, error(answer));
    }

    @ParameterizedTest
    @ValueSource(strings = {"%C3", "%FF%FE", "%C0%AF"})
    void escapesThatAreNotUtf8Are400NotADroppedConnection(String raw) throws IOException {
        RawHttp answer = RawHttp.get(server.address(), "/assets/" + raw + "x");
        assertEquals(400, answer.status(), answer.body());
        assertEquals(
                "the path segment " + raw
                        + "x is not valid percent-encoded UTF-8 (a % must start an escape such as %25)",
                error(answer));
    }

    /** The JDK's server refuses a request URI that is not one before the API sees it, also with a 400. */
    @ParameterizedTest
    @ValueSource(strings = {"a%2", "%zz", "%%41", "%"})
    void aBrokenEscapeIs400(String raw) throws IOException {
        assertEquals(400, RawHttp.get(server.address(), "/assets/" + raw + "x").status());
    }

    @Test
    void anEncodedSlashDoesNotReachAnotherRoute() throws IOException {
        assertEquals(
                404, RawHttp.get(server.address(), "/api/v1/predict%2Ftasks").status());
        assertEquals(200, RawHttp.get(server.address(), "/openapi.json").status());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ops.example.com",
                "https://ops.example.com/path",
                "ftp://ops.example.com",
                "https://user@ops.example.com"
            })
    void anAllowedOriginMustBeAnOrigin(String origin) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new ApiAccess(Set.of(origin), Set.of()));
        assertTrue(e.getMessage().startsWith("--allowed-origin must be an origin"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://scaler", "scaler/x", "scaler:port", ""})
    void anAllowedHostMustBeAName(String host) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new ApiAccess(Set.of(), Set.of(host)));
        assertTrue(e.getMessage().startsWith("--allowed-host must be a host name"), e.getMessage());
    }

    private static RawHttp post(String path, String headers) throws IOException {
        return RawHttp.send(
                server.address(), "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + headers, PREDICTION);
    }

    private static String error(RawHttp answer) throws IOException {
        JsonNode json = Json.MAPPER.readTree(answer.body());
        return json.get("error").asText();
    }
}
