package io.kcscale.tests.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.local.LocalStack;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import io.kcscale.tests.fixtures.SharedStack;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schemathesis fuzzes the scaler's API from its own OpenAPI document, against a scaler connected to
 * the real stack and started with a token: no 5xx, and every response matches the document. Then every
 * operation the document secures is sent without the token and with a wrong one: 401 each time. The
 * scaler under test allows at most one task, so generated scale requests are refused or leave the sink
 * at one task, quickly.
 */
@Order(5)
@ExtendWith(SharedStack.class)
class ApiConformanceTest {

    private static final Pattern GENERATED = Pattern.compile("(\\d+) generated");
    private static final String TOKEN = "conformance-token-1";
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void everyGeneratedRequestGetsADocumentedAnswerAndNoServerError(LocalStack stack, @TempDir Path dir)
            throws Exception {
        ScalerSettings settings = ScalerSettings.fromValues(Map.of(
                "connect.url",
                stack.endpoints().connectUrl().toString(),
                // a scaler of its own: replicas with one id share policies and a leader, the shared stack's included
                "scaler.cluster.id",
                "api-conformance-test",
                "kafka.bootstrap.servers",
                stack.endpoints().kafkaBootstrap(),
                "elasticsearch.url",
                stack.endpoints().elasticsearchUrl().toString(),
                "task.cap",
                "1",
                "token",
                TOKEN));
        try (ScalerService service = new ScalerService(settings);
                ApiServer api = ApiServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(service))) {
            service.start();
            String url = "http://127.0.0.1:" + api.address().getPort() + "/openapi.json";
            Path report = dir.resolve("schemathesis.txt");
            Process st = new ProcessBuilder(List.of(
                            "schemathesis",
                            "run",
                            url,
                            "--checks",
                            "not_a_server_error,status_code_conformance,content_type_conformance,"
                                    + "response_schema_conformance,response_headers_conformance",
                            "--max-examples",
                            "25",
                            "--no-color",
                            "--seed",
                            "1",
                            "--header",
                            "Authorization: Bearer " + TOKEN))
                    .redirectErrorStream(true)
                    .redirectOutput(report.toFile())
                    .start();
            assertTrue(st.waitFor(10, TimeUnit.MINUTES), "schemathesis did not finish within 10 minutes");
            String out = Files.readString(report, StandardCharsets.UTF_8);
            Matcher generated = GENERATED.matcher(out);
            assertTrue(generated.find(), "no case count in schemathesis' output:\n" + out);
            System.out.println("[measure] schemathesis generated " + generated.group(1) + " cases");
            assertEquals(0, st.exitValue(), "schemathesis found failures:\n" + out);
            assertSecuredOperationsRefuse(url, Optional.empty());
            assertSecuredOperationsRefuse(url, Optional.of("Bearer not-" + TOKEN));
        } catch (IOException e) {
            throw new AssertionError("cannot run schemathesis (install it: python3 -m pip install schemathesis)", e);
        }
    }

    /** Every operation the document secures, sent with {@code authorization} (none, or a wrong one), answers 401 asking for a bearer token. */
    private static void assertSecuredOperationsRefuse(String documentUrl, Optional<String> authorization)
            throws Exception {
        URI document = URI.create(documentUrl);
        JsonNode paths = new ObjectMapper()
                .readTree(HTTP.send(HttpRequest.newBuilder(document).build(), HttpResponse.BodyHandlers.ofString())
                        .body())
                .path("paths");
        int secured = 0;
        for (Iterator<Map.Entry<String, JsonNode>> p = paths.fields(); p.hasNext(); ) {
            Map.Entry<String, JsonNode> path = p.next();
            for (Iterator<Map.Entry<String, JsonNode>> o = path.getValue().fields(); o.hasNext(); ) {
                Map.Entry<String, JsonNode> operation = o.next();
                if (!operation.getValue().has("security")) {
                    continue;
                }
                secured++;
                String method = operation.getKey().toUpperCase(Locale.ROOT);
                HttpRequest.Builder request = HttpRequest.newBuilder(
                                document.resolve(path.getKey().replace("{name}", "token-probe")))
                        .header("Content-Type", "application/json")
                        .method(
                                method,
                                method.equals("DELETE")
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString("{\"tasks\":1}"));
                authorization.ifPresent(value -> request.header("Authorization", value));
                HttpResponse<String> answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(
                        401,
                        answer.statusCode(),
                        method + " " + path.getKey() + " with " + authorization + ": " + answer.body());
                assertEquals(Optional.of("Bearer"), answer.headers().firstValue("WWW-Authenticate"));
            }
        }
        assertTrue(secured >= 3, "the document secures " + secured + " operations");
    }
}
