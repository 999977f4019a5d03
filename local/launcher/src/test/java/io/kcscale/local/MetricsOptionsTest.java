package io.kcscale.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MetricsOptionsTest {

    @Test
    void prometheusBringsTheExporterAlong() {
        MetricsOptions m =
                StackOptions.builder(Path.of("/h")).prometheus(true).build().metrics();
        assertTrue(m.exporter());
        assertTrue(m.prometheus());
    }

    @Test
    void offByDefaultOnTheUsualPortsAndFreePortsForTests() {
        MetricsOptions defaults = StackOptions.builder(Path.of("/h")).build().metrics();
        assertFalse(defaults.exporter() || defaults.prometheus());
        assertEquals(9404, defaults.exporterPort());
        assertEquals(9090, defaults.prometheusPort());
        MetricsOptions free = StackOptions.builder(Path.of("/h"))
                .freePorts()
                .metrics(true)
                .build()
                .metrics();
        assertEquals(0, free.exporterPort());
        assertEquals(0, free.prometheusPort());
    }

    @Test
    void refusesAPortOutOfRange() {
        assertThrows(
                IllegalArgumentException.class,
                () -> StackOptions.builder(Path.of("/h")).metricsPort(70000).build());
    }
}
