package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.checks.WorkerCpuRates.Scrape;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerCpuReadingsTest {

    private static final double START = 1_000_000;
    private static final long PAST_WARM_UP = (long) (START * 1000) + 120_000;

    @Test
    void theCounterRatedBetweenTwoScrapesPastTheWarmUp() {
        WorkerCpu w = WorkerCpuRates.between(
                "w",
                new Scrape(PAST_WARM_UP, 50, START, 2, 0.3),
                new Scrape(PAST_WARM_UP + 4_000, 56, START, 2, 0.9),
                WorkerCpuSource.EXPORTER);
        assertTrue(w.known(), w.unknown());
        assertEquals(1.5, w.processCores(), 1e-9);
        assertEquals(2, w.hostProcessors());
        assertEquals(0.9, w.hostBusy(), 1e-9, "the host's load as of the later scrape");
        assertEquals(WorkerCpuSource.EXPORTER, w.source());
    }

    @Test
    void aWindowInsideTheJvmsFirstMinuteIsNotJudged() {
        long early = (long) (START * 1000) + 20_000;
        WorkerCpu w = WorkerCpuRates.between(
                "w",
                new Scrape(early, 5, START, 2, 0.9),
                new Scrape(early + 2_000, 8.8, START, 2, 0.9),
                WorkerCpuSource.EXPORTER);
        assertFalse(w.known());
        assertEquals(
                "exporter: its JVM is warming up (the window starts 20 s after its process did; it is read from 60 s on)",
                w.unknown());
    }

    @Test
    void aRestartOrTooShortAWindowOrNoProcessorCountIsUnknown() {
        Scrape before = new Scrape(PAST_WARM_UP, 50, START, 2, 0.3);
        assertTrue(WorkerCpuRates.between(
                        "w", before, new Scrape(PAST_WARM_UP + 5_000, 3, START + 100, 2, 0.3), WorkerCpuSource.EXPORTER)
                .unknown()
                .contains("restarted"));
        assertTrue(WorkerCpuRates.between(
                        "w", before, new Scrape(PAST_WARM_UP + 200, 50.1, START, 2, 0.3), WorkerCpuSource.EXPORTER)
                .unknown()
                .contains("too close"));
        String noCount = WorkerCpuRates.between(
                        "w",
                        before,
                        new Scrape(PAST_WARM_UP + 5_000, 51, START, Double.NaN, 0.3),
                        WorkerCpuSource.EXPORTER)
                .unknown();
        assertTrue(noCount.contains("java_lang_operatingsystem_availableprocessors"), noCount);
        WorkerCpu noLoad = WorkerCpuRates.between(
                "w", before, new Scrape(PAST_WARM_UP + 5_000, 51, START, 4, Double.NaN), WorkerCpuSource.EXPORTER);
        assertTrue(noLoad.known() && !noLoad.hostBusyRead(), "the host's load is optional");
    }

    @Test
    void aPrometheusRateCountsOnlyWhenItsWindowStartsPastTheWarmUp() {
        Duration minute = Duration.ofMinutes(1);
        WorkerCpu read =
                WorkerCpuRates.ofRate("w", 1.7, 2, 0.95, START, START + 130, minute, WorkerCpuSource.PROMETHEUS);
        assertEquals(1.7, read.processCores(), 1e-9);
        assertEquals(WorkerCpuSource.PROMETHEUS, read.source());
        assertTrue(WorkerCpuRates.ofRate("w", 1.7, 2, 0.95, START, START + 100, minute, WorkerCpuSource.PROMETHEUS)
                .unknown()
                .startsWith("prometheus: its JVM is warming up (the window starts 40 s"));
        assertFalse(
                WorkerCpuRates.ofRate("w", Double.NaN, 2, 0.9, START, START + 200, minute, WorkerCpuSource.PROMETHEUS)
                        .known());
    }

    @Test
    void theFirstSourceThatReadAWorkerStandsForItElseEveryReasonIsKept() {
        WorkerCpu fromPrometheus = WorkerCpu.read("w", 0.4, 2, 0.5, WorkerCpuSource.PROMETHEUS);
        assertEquals(
                fromPrometheus,
                WorkerCpuRates.chosen(
                        "w",
                        List.of(
                                WorkerCpu.unknown("w", "exporter: refused"),
                                fromPrometheus,
                                new WorkerCpu("w", 0.5, 2, 0.5))));
        WorkerCpu none = WorkerCpuRates.chosen(
                "w",
                List.of(
                        WorkerCpu.unknown("w", "exporter: refused"),
                        WorkerCpu.unknown("w", "proc: not a process on the scaler's host")));
        assertEquals("exporter: refused; proc: not a process on the scaler's host", none.unknown());
        assertEquals(
                "no source is set to read it",
                WorkerCpuRates.chosen("w", List.of()).unknown());
    }
}
