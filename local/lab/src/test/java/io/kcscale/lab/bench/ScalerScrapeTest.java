package io.kcscale.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ScalerScrapeTest {

    private static String exposition(long under10ms, long under20ms, long all, double sum, double cpu, String heap) {
        return """
                # HELP kcscale_sampling_round_seconds Duration of one sampling round
                # TYPE kcscale_sampling_round_seconds histogram
                kcscale_sampling_round_seconds_bucket{le="0.01"} %d
                kcscale_sampling_round_seconds_bucket{le="0.02"} %d
                kcscale_sampling_round_seconds_bucket{le="+Inf"} %d
                kcscale_sampling_round_seconds_count %d
                kcscale_sampling_round_seconds_sum %s
                kcscale_sampling_round_connectors 10
                kcscale_scaler_cpu_seconds_total %s
                %s
                kcscale_scaler_heap_max_bytes 2.68435456E8
                kcscale_partition_lag_records{connector="a",partition="0"} 3.0
                """.formatted(under10ms, under20ms, all, all, sum, cpu, heap);
    }

    @Test
    void aWindowIsTheDifferenceOfTwoScrapes() {
        ScalerScrape first =
                ScalerScrape.parse(0, exposition(2, 2, 2, 0.01, 1.5, "kcscale_scaler_heap_used_after_gc_bytes 4.0E7"));
        ScalerScrape last = ScalerScrape.parse(
                10_000_000_000L, exposition(6, 12, 12, 0.16, 2.5, "kcscale_scaler_heap_used_after_gc_bytes 5.0E7"));
        assertEquals(10, first.roundConnectors());
        assertEquals(40_000_000L, first.heapAfterGc());
        assertEquals(268_435_456L, last.heapMax());
        ScalerScrape.Window w = first.until(last);
        assertEquals(10, w.rounds());
        assertEquals(0.015, w.roundMeanSeconds(), 1e-9);
        assertEquals(0.1, w.cpuShare(), 1e-9, "one CPU second over ten");
        // 4 of the 10 new rounds under 10 ms, 6 between 10 and 20 ms: the median is 1/6 into the second bucket
        assertEquals(0.01 + 0.01 / 6, w.roundP50Seconds(), 1e-9);
        assertEquals(0.01 + 0.01 * 5.9 / 6, w.roundP99Seconds(), 1e-9);
    }

    @Test
    void noHeapFigureBeforeTheFirstCollection() {
        assertNull(ScalerScrape.parse(0, exposition(0, 0, 0, 0, 1, "")).heapAfterGc());
    }

    @Test
    void aScalerWithoutTheRoundHistogramIsNamed() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> ScalerScrape.parse(0, "kcscale_scaler_cpu_seconds_total 1.0\n"));
        assertTrue(e.getMessage().contains(ScalerScrape.ROUND), e.getMessage());
    }

    @Test
    void quantilesOfNothingAreNotANumberAndBeyondTheLastBoundAreTheLastBound() {
        NavigableMap<Double, Long> none = new TreeMap<>();
        none.put(0.1, 0L);
        none.put(Double.POSITIVE_INFINITY, 0L);
        assertTrue(Double.isNaN(ScalerScrape.quantile(none, 0.5)));
        NavigableMap<Double, Long> slow = new TreeMap<>();
        slow.put(0.1, 0L);
        slow.put(Double.POSITIVE_INFINITY, 3L);
        assertEquals(0.1, ScalerScrape.quantile(slow, 0.99));
    }
}
