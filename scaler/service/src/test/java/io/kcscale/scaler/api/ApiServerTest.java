package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.cli.CliRun;
import io.kcscale.scaler.common.Json;
import io.kcscale.scaler.predict.KafkaRequest;
import io.kcscale.scaler.predict.LagThresholdRequest;
import io.kcscale.scaler.predict.ShardsRequest;
import io.kcscale.scaler.predict.TaskPrediction;
import io.kcscale.scaler.predict.TasksRequest;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiServerTest {

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

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "tasks|{\"targetRate\":10000,\"perTaskRate\":70,\"utilization\":0.8}"
                        + "|--target-rate 10000 --per-task-rate 70 --utilization 0.8",
                "tasks|{\"targetRate\":10000,\"perTaskRate\":70,\"arrivals\":\"poisson\",\"burstWindowSeconds\":2,\"quantile\":0.999,"
                        + "\"lag\":500}|--target-rate 10000 --per-task-rate 70 --arrivals poisson --burst-window-seconds 2"
                        + " --quantile 0.999 --lag 500",
                "kafka|{\"brokers\":3,\"replicationFactor\":3,\"consumerGroups\":2,\"storageMbps\":250,"
                        + "\"storageNetworkMbps\":1000,\"networkOutMbps\":300,\"targetMbps\":400}|--brokers 3"
                        + " --replication-factor 3 --consumer-groups 2 --storage-mbps 250 --storage-network-mbps 1000"
                        + " --network-out-mbps 300 --target-mbps 400",
                "lag-threshold|{\"perTaskRate\":100,\"tasks\":1,\"latencySloSeconds\":30}"
                        + "|--per-task-rate 100 --tasks 1 --latency-slo-seconds 30",
                "shards|{\"targetRate\":10000,\"perShardRate\":1500,\"dataNodes\":3,\"replicas\":2}"
                        + "|--target-rate 10000 --per-shard-rate 1500 --data-nodes 3 --replicas 2"
            })
    void everyPredictRouteAnswersWhatTheCliPrintsWithJson(String verb, String body, String flags)
            throws IOException, InterruptedException {
        HttpResponse<String> response = post("/api/v1/predict/" + verb, body);
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(
                "application/json; charset=utf-8",
                response.headers().firstValue("Content-Type").orElseThrow());
        String[] args = ("predict " + verb + " " + flags + " --json").split(" ");
        CliRun cli = CliRun.of(args);
        assertEquals(0, cli.exitCode(), cli.err());
        assertEquals(cli.out(), response.body());
    }

    @Test
    void measurementsAreAnArrayOfPoints() throws IOException, InterruptedException {
        HttpResponse<String> response = post(
                "/api/v1/predict/tasks",
                "{\"targetRate\":300,\"measurements\":["
                        + "{\"tasks\":1,\"throughput\":70},{\"tasks\":2,\"throughput\":138},{\"tasks\":3,\"throughput\":200},"
                        + "{\"tasks\":5,\"throughput\":290},{\"tasks\":8,\"throughput\":350}]}");
        assertEquals(200, response.statusCode(), response.body());
        JsonNode json = Json.MAPPER.readTree(response.body());
        assertEquals("usl", json.get("model").asText());
        assertEquals(5, json.get("usl").get("points").asInt());
    }

    @Test
    void theIntervalMarginIsAFieldOfTheRequestAndItsDocumentedDefaultIsTheOneApplied()
            throws IOException, InterruptedException {
        String points = "\"measurements\":[{\"tasks\":1,\"throughput\":70},{\"tasks\":2,\"throughput\":138},"
                + "{\"tasks\":3,\"throughput\":200},{\"tasks\":5,\"throughput\":290},{\"tasks\":8,\"throughput\":350}]";
        HttpResponse<String> given =
                post("/api/v1/predict/tasks", "{\"targetRate\":250," + points + ",\"intervalMargin\":0.1}");
        assertEquals(200, given.statusCode(), given.body());
        assertEquals(
                0.1, Json.MAPPER.readTree(given.body()).at("/intervals/margin").asDouble());
        HttpResponse<String> absent = post("/api/v1/predict/tasks", "{\"targetRate\":250," + points + "}");
        double documented = Json.MAPPER
                .readTree(getClass().getResource(OpenApiRoutes.RESOURCE))
                .at("/components/schemas/TasksRequest/properties/intervalMargin/default")
                .asDouble();
        assertEquals(TaskPrediction.DEFAULT_INTERVAL_MARGIN, documented);
        assertEquals(
                documented,
                Json.MAPPER.readTree(absent.body()).at("/intervals/margin").asDouble());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"targetRate\":10000,|malformed JSON at line 1|",
                "{\"targetRate\":10000} {}|malformed JSON|",
                "{\"targetRate\":NaN,\"perTaskRate\":70}|malformed JSON|",
                "[1,2]|the request body must be a JSON object|",
                "null|the request body must be a JSON object|",
                "''|the request body must be a JSON object|",
                "{\"targetRate\":\"10000\",\"perTaskRate\":70}|targetRate must be a number|targetRate",
                "{\"targetRate\":10000,\"perTaskRate\":70,\"tasksMax\":3}|tasksMax is not a field of this request|tasksMax",
                "{\"targetRate\":-1,\"perTaskRate\":70}|targetRate must be greater than 0, got -1|targetRate",
                "{\"targetRate\":1e400,\"perTaskRate\":70}|targetRate must be a finite number|targetRate",
                "{\"targetRate\":100}|perTaskRate is required (or give measurements)|perTaskRate",
                "{\"targetRate\":100,\"perTaskRate\":70,\"utilization\":0}|utilization must be more than 0|utilization",
                "{\"targetRate\":100,\"measurements\":[{\"tasks\":\"x\",\"throughput\":1}]}|measurements[0].tasks must be"
                        + " a number|measurements[0].tasks",
                "{\"targetRate\":100,\"measurements\":[{\"tasks\":1.5,\"throughput\":1}]}|measurements point 1: tasks must"
                        + " be a whole number|measurements",
                "{\"targetRate\":100,\"measurements\":{}}|measurements must be an array|measurements",
                "{\"targetRate\":100,\"measurements\":[{\"tasks\":1,\"throughput\":70}],\"intervalMargin\":4}"
                        + "|intervalMargin must be a share from 0 to 1 (0.04 is 4%), got 4|intervalMargin",
                "{\"targetRate\":100,\"perTaskRate\":70,\"intervalMargin\":0.04}|intervalMargin applies only with"
                        + " measurements|intervalMargin"
            })
    void badRequestsAre400WithTheFieldAtFault(String body, String error, String field)
            throws IOException, InterruptedException {
        HttpResponse<String> response = post("/api/v1/predict/tasks", body);
        assertEquals(400, response.statusCode(), response.body());
        JsonNode json = Json.MAPPER.readTree(response.body());
        assertTrue(json.get("error").asText().startsWith(error), json.toString());
        if (field == null) {
            assertTrue(!json.has("field"), json.toString());
        } else {
            assertEquals(field, json.get("field").asText());
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "tasks|{\"targetRate\":10000,\"perTaskRate\":70,\"utilization\":null}|utilization must not be null: give a value,"
                        + " or leave an optional field out to take its default|utilization",
                "tasks|{\"targetRate\":null,\"perTaskRate\":70}|targetRate must not be null|targetRate",
                "tasks|{\"targetRate\":100,\"perTaskRate\":null,\"measurements\":[{\"tasks\":1,\"throughput\":70}]}"
                        + "|perTaskRate must not be null|perTaskRate",
                "tasks|{\"targetRate\":100,\"measurements\":[{\"tasks\":1,\"throughput\":70},null]}"
                        + "|measurements[1] must not be null|measurements[1]",
                "tasks|{\"targetRate\":100,\"measurements\":[{\"tasks\":1,\"throughput\":null}]}"
                        + "|measurements[0].throughput must not be null|measurements[0].throughput",
                "tasks|{\"targetRate\":100,\"perTaskRate\":70,\"arrivals\":null}|arrivals must not be null|arrivals",
                "tasks|{\"targetRate\":100,\"perTaskRate\":70,\"tasksMax\":null}|tasksMax is not a field of this request|tasksMax",
                "tasks|{\"targetRate\":100,\"perTaskRate\":70,\"lag\":\"x\",\"utilization\":null}|lag must be a number|lag",
                "kafka|{\"brokers\":3,\"replicationFactor\":3,\"consumerGroups\":2,\"storageMbps\":250,"
                        + "\"storageNetworkMbps\":1000,\"networkOutMbps\":300,\"targetMbps\":null}|targetMbps must not be null"
                        + "|targetMbps",
                "lag-threshold|{\"perTaskRate\":100,\"tasks\":null,\"latencySloSeconds\":30}|tasks must not be null|tasks",
                "shards|{\"targetRate\":10000,\"perShardRate\":1500,\"dataNodes\":3,\"replicas\":null}"
                        + "|replicas must not be null|replicas"
            })
    void nullIsRefusedNotTakenForAnAbsentField(String verb, String body, String error, String field)
            throws IOException, InterruptedException {
        HttpResponse<String> response = post("/api/v1/predict/" + verb, body);
        assertEquals(400, response.statusCode(), response.body());
        JsonNode json = Json.MAPPER.readTree(response.body());
        assertTrue(json.get("error").asText().startsWith(error), json.toString());
        assertEquals(field, json.get("field").asText());
    }

    @Test
    void mangledBodiesNeverGiveA5xx() throws IOException, InterruptedException {
        String valid = "{\"targetRate\":10000,\"measurements\":[{\"tasks\":1,\"throughput\":70},"
                + "{\"tasks\":3,\"throughput\":200}],\"arrivals\":\"poisson\",\"quantile\":0.99}";
        String alphabet = "{}[]\":,-.0123456789eE ntrufalsxyz\\";
        Random random = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            char[] body = valid.toCharArray();
            for (int edit = 0; edit < 1 + random.nextInt(4); edit++) {
                body[random.nextInt(body.length)] = alphabet.charAt(random.nextInt(alphabet.length()));
            }
            HttpResponse<String> response = post("/api/v1/predict/tasks", new String(body));
            assertTrue(
                    response.statusCode() == 200 || response.statusCode() == 400,
                    response.statusCode() + " for " + new String(body) + ": " + response.body());
            Json.MAPPER.readTree(response.body());
        }
    }

    @Test
    void unknownPathsAndMethodsAnswerJson() throws IOException, InterruptedException {
        HttpResponse<String> notFound =
                send(HttpRequest.newBuilder(uri("/api/v1/predict/nodes")).GET());
        assertEquals(404, notFound.statusCode());
        assertEquals(
                "no route /api/v1/predict/nodes",
                Json.MAPPER.readTree(notFound.body()).get("error").asText());
        HttpResponse<String> wrongMethod =
                send(HttpRequest.newBuilder(uri("/api/v1/predict/tasks")).GET());
        assertEquals(405, wrongMethod.statusCode());
        assertEquals("POST", wrongMethod.headers().firstValue("Allow").orElseThrow());
        assertTrue(
                Json.MAPPER.readTree(wrongMethod.body()).get("error").asText().contains("allowed: POST"));
    }

    @Test
    void aRefusalOfARequestWithABodySaysTheConnectionCloses() throws IOException, InterruptedException {
        HttpResponse<String> refused = post("/api/v1/predict/nodes", "{\"tasks\":1}");
        assertEquals(404, refused.statusCode());
        assertEquals(Optional.of("close"), refused.headers().firstValue("Connection"));
        HttpResponse<String> answered = post(
                "/api/v1/predict/tasks",
                "{\"targetRate\":100,\"measurements\":["
                        + "{\"tasks\":1,\"throughput\":70},{\"tasks\":2,\"throughput\":138}]}");
        assertEquals(200, answered.statusCode(), answered.body());
        assertEquals(
                Optional.empty(),
                answered.headers().firstValue("Connection"),
                "an answered request keeps its connection");
        for (int i = 0; i < 50; i++) {
            // each refusal on a connection the client would otherwise reuse
            assertEquals(
                    404, post("/api/v1/predict/nodes", "{\"tasks\":" + i + "}").statusCode());
        }
    }

    @Test
    void theHealthRouteAnswersWithoutAPipeline() throws IOException, InterruptedException {
        HttpResponse<String> response =
                send(HttpRequest.newBuilder(uri(HealthRoutes.PATH)).GET());
        assertEquals(200, response.statusCode());
        assertEquals("ok", Json.MAPPER.readTree(response.body()).get("status").asText());
    }

    @Test
    void aPredictionForAConnectorNeedsAConnectedScalerAndAnOfflineOneDoesNot()
            throws IOException, InterruptedException {
        HttpResponse<String> live = post("/api/v1/predict/tasks", "{\"targetRate\":300,\"connector\":\"s\"}");
        assertEquals(503, live.statusCode(), live.body());
        assertTrue(
                Json.MAPPER
                        .readTree(live.body())
                        .get("error")
                        .asText()
                        .startsWith("the scaler is not connected to a pipeline"),
                live.body());
        HttpResponse<String> both =
                post("/api/v1/predict/tasks", "{\"targetRate\":300,\"perTaskRate\":70,\"connector\":\"s\"}");
        assertEquals(503, both.statusCode(), "a live request goes to the pipeline first: " + both.body());
    }

    @Test
    void tooLargeABodyIs413() throws IOException, InterruptedException {
        HttpResponse<String> response = post("/api/v1/predict/tasks", " ".repeat(JsonBody.MAX_BYTES + 1));
        assertEquals(413, response.statusCode());
    }

    @Test
    void theOpenApiDocumentListsEveryRoute() throws IOException, InterruptedException {
        HttpResponse<String> response =
                send(HttpRequest.newBuilder(uri(OpenApiRoutes.PATH)).GET());
        assertEquals(200, response.statusCode());
        JsonNode document = Json.MAPPER.readTree(response.body());
        assertTrue(document.get("openapi").asText().startsWith("3.0"));
        Map<String, Set<String>> documented = new java.util.TreeMap<>();
        document.get("paths")
                .fields()
                .forEachRemaining(path -> documented.put(
                        path.getKey(),
                        names(path.getValue()).stream().map(String::toUpperCase).collect(Collectors.toSet())));
        assertEquals(new java.util.TreeMap<>(server.routes()), documented);
    }

    @ParameterizedTest
    @CsvSource({
        "tasks, TasksRequest, TasksResult",
        "kafka, KafkaRequest, KafkaResult",
        "lag-threshold, LagThresholdRequest, LagThresholdResult",
        "shards, ShardsRequest, ShardsResult"
    })
    void theOpenApiSchemasMatchTheRequestAndResultTypes(String verb, String request, String result) throws IOException {
        JsonNode schemas = Json.MAPPER
                .readTree(getClass().getResource(OpenApiRoutes.RESOURCE))
                .get("components")
                .get("schemas");
        Class<?> type = Map.of(
                        "tasks",
                        TasksRequest.class,
                        "kafka",
                        KafkaRequest.class,
                        "lag-threshold",
                        LagThresholdRequest.class,
                        "shards",
                        ShardsRequest.class)
                .get(verb);
        assertEquals(
                Arrays.stream(type.getRecordComponents())
                        .map(RecordComponent::getName)
                        .collect(Collectors.toSet()),
                names(schemas.get(request).get("properties")));
        String resultType = "io.kcscale.scaler.predict." + result;
        try {
            assertEquals(
                    Arrays.stream(Class.forName(resultType).getRecordComponents())
                            .map(RecordComponent::getName)
                            .collect(Collectors.toSet()),
                    names(schemas.get(result).get("properties")));
        } catch (ClassNotFoundException e) {
            throw new AssertionError(resultType, e);
        }
    }

    @ParameterizedTest
    @CsvSource({"TasksRequest", "Measurement", "KafkaRequest", "LagThresholdRequest", "ShardsRequest"})
    void everyCountInARequestIsDocumentedUpToTheIntLimitInputsEnforces(String request) throws IOException {
        JsonNode schema = Json.MAPPER
                .readTree(getClass().getResource(OpenApiRoutes.RESOURCE))
                .get("components")
                .get("schemas")
                .get(request);
        assertEquals(false, schema.get("additionalProperties").asBoolean(true), request + " refuses unknown fields");
        schema.get("properties").fields().forEachRemaining(property -> {
            if (property.getValue().path("type").asText().equals("integer")) {
                assertEquals(
                        Integer.MAX_VALUE,
                        property.getValue().path("maximum").asLong(),
                        request + "." + property.getKey());
            }
        });
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "kafka|{\"brokers\":2147483647,\"replicationFactor\":1,\"consumerGroups\":2147483647,\"storageMbps\":1,"
                        + "\"storageNetworkMbps\":1,\"networkOutMbps\":1}|200",
                "kafka|{\"brokers\":2147483648,\"replicationFactor\":1,\"consumerGroups\":1,\"storageMbps\":1,"
                        + "\"storageNetworkMbps\":1,\"networkOutMbps\":1}|400",
                // the int-overflow regression: consumerGroups + replicationFactor - 1 above the int range
                "kafka|{\"brokers\":2147483647,\"replicationFactor\":2147483647,\"consumerGroups\":2147483647,"
                        + "\"storageMbps\":1,\"storageNetworkMbps\":1,\"networkOutMbps\":1}|200",
                "kafka|{\"brokers\":2,\"replicationFactor\":1,\"consumerGroups\":1,\"storageMbps\":1.7976931348623157e308,"
                        + "\"storageNetworkMbps\":1,\"networkOutMbps\":1}|400",
                "shards|{\"targetRate\":1,\"perShardRate\":1,\"dataNodes\":2147483647,\"replicas\":2147483647}|200",
                "lag-threshold|{\"perTaskRate\":1,\"tasks\":2147483647,\"latencySloSeconds\":1}|200",
                "tasks|{\"targetRate\":1,\"measurements\":[{\"tasks\":2147483647,\"throughput\":1e10}]}|200",
                "tasks|{\"targetRate\":1,\"measurements\":[{\"tasks\":2147483648,\"throughput\":1}]}|400",
                "tasks|{\"targetRate\":1e9,\"perTaskRate\":1e9,\"arrivals\":\"poisson\",\"quantile\":1e-300}|200",
                "tasks|{\"targetRate\":1e-300,\"perTaskRate\":1,\"lag\":1e300}|400"
            })
    void theLimitsOfTheRangesAnswer200Or400NeverA5xx(String verb, String body, int status)
            throws IOException, InterruptedException {
        HttpResponse<String> response = post("/api/v1/predict/" + verb, body);
        assertEquals(status, response.statusCode(), response.body());
        JsonNode json = Json.MAPPER.readTree(response.body());
        if (status == 400) {
            assertTrue(json.has("field"), json.toString());
        }
    }

    private static Set<String> names(JsonNode object) {
        Set<String> names = new HashSet<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    private static HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        InetSocketAddress address = server.address();
        return URI.create("http://" + address.getHostString() + ":" + address.getPort() + path);
    }
}
