package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.common.Json;
import io.kcscale.scaler.input.InvalidInputException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Inputs each within their own field's range but extreme together (the smallest positive double,
 * the largest, counts at the int limit): every prediction either answers with finite numbers only,
 * which JSON can carry, or refuses with an {@link InvalidInputException} naming a field, which the
 * API turns into a 400. Nothing else may escape: any other exception would be a 500.
 */
class ExtremeInputsTest {

    private static final double[] POSITIVE = {
        Double.MIN_VALUE,
        Double.MIN_NORMAL,
        1e-300,
        1e-9,
        0.5,
        1,
        70,
        1e4,
        1e9,
        1e15,
        1e100,
        1e300,
        1.5e307,
        Double.MAX_VALUE / 2,
        Double.MAX_VALUE
    };
    private static final double[] COUNTS = {1, 2, 3, 7, 1e4, 1e9, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
    private static final double[] SHARES = {Double.MIN_VALUE, 1e-300, 0.01, 0.5, 0.8, 1 - 1e-16, 1};
    private static final double[] QUANTILES = {Double.MIN_VALUE, 1e-300, 0.01, 0.5, 0.99, 1 - 1e-16};
    private static final int TRIALS = 5_000;
    /** Fitting the USL to wild measurements takes up to thousands of iterations: fewer trials. */
    private static final int TASKS_TRIALS = 1_500;

    private final Random random = new Random(20240611);

    @Test
    void tasksAnswerFiniteNumbersOrAFieldError() {
        for (int trial = 0; trial < TASKS_TRIALS; trial++) {
            boolean measured = random.nextBoolean();
            List<Measurement> points = null;
            if (measured) {
                points = new ArrayList<>();
                int n = 1 + random.nextInt(6);
                for (int i = 0; i < n; i++) {
                    points.add(new Measurement(
                            random.nextInt(4) == 0 ? pick(COUNTS) : 1 + random.nextInt(12), pick(POSITIVE)));
                }
            }
            boolean poisson = random.nextBoolean();
            TasksRequest request = new TasksRequest(
                    pick(POSITIVE),
                    measured ? null : pick(POSITIVE),
                    points,
                    maybe(SHARES),
                    poisson ? "poisson" : null,
                    poisson ? maybe(POSITIVE) : null,
                    poisson ? maybe(QUANTILES) : null,
                    random.nextBoolean() ? pick(POSITIVE) : null,
                    measured ? maybe(SHARES) : null,
                    null);
            check(request, () -> TaskPrediction.predict(request));
        }
        report();
    }

    @Test
    void kafkaAnswersFiniteNumbersOrAFieldError() {
        for (int trial = 0; trial < TRIALS; trial++) {
            KafkaRequest request = new KafkaRequest(
                    pick(COUNTS),
                    pick(COUNTS),
                    pick(COUNTS),
                    pick(POSITIVE),
                    pick(POSITIVE),
                    pick(POSITIVE),
                    maybe(SHARES),
                    maybe(POSITIVE));
            check(request, () -> KafkaClusterCapacity.predict(request));
        }
        report();
    }

    @Test
    void lagThresholdAnswersFiniteNumbersOrAFieldError() {
        for (int trial = 0; trial < TRIALS; trial++) {
            LagThresholdRequest request = new LagThresholdRequest(pick(POSITIVE), pick(COUNTS), pick(POSITIVE));
            check(request, () -> LagThreshold.predict(request));
        }
        report();
    }

    @Test
    void shardsAnswerFiniteNumbersOrAFieldError() {
        for (int trial = 0; trial < TRIALS; trial++) {
            double[] replicas = {0, 1, 2, 1e6, Integer.MAX_VALUE};
            ShardsRequest request = new ShardsRequest(pick(POSITIVE), pick(POSITIVE), pick(COUNTS), maybe(replicas));
            check(request, () -> ShardPrediction.predict(request));
        }
        report();
    }

    @Test
    void workersAnswerFiniteNumbersOrAFieldError() {
        for (int trial = 0; trial < TRIALS; trial++) {
            WorkersRequest request = new WorkersRequest(
                    pick(POSITIVE), pick(POSITIVE), pick(POSITIVE), pick(POSITIVE), maybe(POSITIVE), maybe(SHARES));
            check(request, () -> WorkerPrediction.predict(request));
        }
        report();
    }

    /** The first request of each kind of failure, so that one run shows them all. */
    private final java.util.Map<String, String> failures = new java.util.TreeMap<>();

    private void report() {
        if (!failures.isEmpty()) {
            fail(failures.size() + " kind(s) of failure:\n" + String.join("\n", failures.values()));
        }
    }

    private double pick(double[] values) {
        return values[random.nextInt(values.length)];
    }

    private Double maybe(double[] values) {
        return random.nextInt(3) == 0 ? null : pick(values);
    }

    private void check(Object request, Supplier<Object> prediction) {
        Object result;
        try {
            result = prediction.get();
        } catch (InvalidInputException e) {
            assertTrue(e.field() != null && !e.field().isEmpty(), e.getMessage());
            return;
        } catch (RuntimeException e) {
            StackTraceElement at = e.getStackTrace().length == 0 ? null : e.getStackTrace()[0];
            failures.putIfAbsent(e.getClass().getName() + at, "a 500 (" + e + " at " + at + ") for " + request);
            return;
        }
        List<String> bad = new ArrayList<>();
        nonFinite(Json.MAPPER.valueToTree(result), "", bad);
        if (!bad.isEmpty()) {
            failures.putIfAbsent(
                    bad.stream()
                            .map(b -> b.substring(0, b.indexOf('=')).replaceAll("\\[\\d+]", "[]"))
                            .distinct()
                            .sorted()
                            .toList()
                            .toString(),
                    "not finite " + bad + " for " + request);
        }
    }

    private static void nonFinite(JsonNode node, String at, List<String> bad) {
        if (node.isNumber() && !Double.isFinite(node.doubleValue())) {
            bad.add(at + "=" + node.doubleValue());
        } else if (node.isTextual()
                && (node.asText().contains("NaN") || node.asText().contains("∞"))) {
            bad.add(at + "=" + node.asText());
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            nonFinite(node.get(name), at + "." + name, bad);
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                nonFinite(node.get(i), at + "[" + i + "]", bad);
            }
        }
    }
}
