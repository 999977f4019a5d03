package io.kcscale.scaler.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExpositionSampleTest {

    @Test
    void readsNamesLabelsAndValuesAsTheFormatWritesThem() {
        assertEquals(Optional.empty(), ExpositionSample.parse("   "));
        assertEquals(Optional.empty(), ExpositionSample.parse("# TYPE up gauge"));
        assertEquals(
                new ExpositionSample("process_start_time_seconds", Map.of(), 1.795763708774E9),
                ExpositionSample.parse("process_start_time_seconds 1.795763708774E9")
                        .orElseThrow());
        // the JMX exporter's trailing comma, a timestamp after the value
        ExpositionSample task = ExpositionSample.parse(
                        "kafka_connect_sink_task_sink_record_read_total{connector=\"stocks-es-sink\",task=\"0\",} 1200.0 1700000000000")
                .orElseThrow();
        assertEquals(Map.of("connector", "stocks-es-sink", "task", "0"), task.labels());
        assertEquals(List.of("connector", "task"), List.copyOf(task.labels().keySet()), "in the line's order");
        assertEquals(1200.0, task.value());
        // escapes undone; a brace, a comma and a space inside a value are the value's
        ExpositionSample odd = ExpositionSample.parse("x_total{path=\"a \\\"b\\\"}, c\\\\d\\nnext\",le=\"+Inf\"} 3")
                .orElseThrow();
        assertEquals("a \"b\"}, c\\d\nnext", odd.labels().get("path"));
        assertEquals(
                Double.POSITIVE_INFINITY, ExpositionSample.number(odd.labels().get("le")));
        assertEquals(
                Double.NEGATIVE_INFINITY,
                ExpositionSample.parse("g -Inf").orElseThrow().value());
        assertTrue(Double.isNaN(ExpositionSample.parse("g NaN").orElseThrow().value()));
        assertEquals(-2.5e-3, ExpositionSample.parse("g -2.5E-3").orElseThrow().value());
        assertEquals(100000.0, ExpositionSample.parse("g 1e5").orElseThrow().value());
    }

    @Test
    void aLineThatIsNoSampleSaysWhatIsWrongInOneLine() {
        ExpositionSample.Malformed html =
                assertThrows(ExpositionSample.Malformed.class, () -> ExpositionSample.parse("<html><body>"));
        assertEquals(Optional.empty(), html.name());
        assertEquals("not a sample line: \"<html><body>\"", html.getMessage());
        ExpositionSample.Malformed value =
                assertThrows(ExpositionSample.Malformed.class, () -> ExpositionSample.parse("up lots"));
        assertEquals(Optional.of("up"), value.name());
        assertEquals("up has a value that is no number: \"lots\"", value.getMessage());
        for (String notPrometheus : List.of("Infinity", "0x1p3", "1d", "1,5")) {
            assertThrows(
                    ExpositionSample.Malformed.class,
                    () -> ExpositionSample.parse("up " + notPrometheus),
                    notPrometheus);
        }
        assertEquals(
                "up has a value that is no number: \"\"",
                assertThrows(ExpositionSample.Malformed.class, () -> ExpositionSample.parse("up"))
                        .getMessage());
        assertEquals(
                "up has a label value without its closing quote",
                assertThrows(ExpositionSample.Malformed.class, () -> ExpositionSample.parse("up{a=\"b 1"))
                        .getMessage());
        assertEquals(
                "up has labels that do not parse: \"{a=b} 1\"",
                assertThrows(ExpositionSample.Malformed.class, () -> ExpositionSample.parse("up{a=b} 1"))
                        .getMessage());
        String quoted = assertThrows(
                        ExpositionSample.Malformed.class, () -> ExpositionSample.parse("{\u0007" + "x".repeat(80)))
                .getMessage();
        assertEquals("not a sample line: \"{?" + "x".repeat(58) + "…\"", quoted, "quoted short, controls replaced");
    }
}
