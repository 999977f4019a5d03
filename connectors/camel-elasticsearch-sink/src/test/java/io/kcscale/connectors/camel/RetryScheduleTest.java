package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {

    private static RetrySchedule drawing(double random) {
        return new RetrySchedule(10, Duration.ofMillis(100), Duration.ofSeconds(1), () -> random);
    }

    private static List<Long> delays(RetrySchedule schedule, int failures) {
        return IntStream.rangeClosed(1, failures)
                .mapToObj(n -> schedule.delayAfter(n).toMillis())
                .toList();
    }

    @Test
    void thePauseDoublesUpToTheMaximum() {
        assertEquals(
                List.of(100L, 200L, 400L, 800L, 1000L, 1000L),
                delays(drawing(0.999_999), 6).stream().map(ms -> ms + 1).toList(),
                "the top of each span (just under it)");
    }

    @Test
    void theJitterDrawsBetweenHalfAndAllOfEachPause() {
        assertEquals(List.of(50L, 100L, 200L, 400L, 500L, 500L), delays(drawing(0), 6));
        assertEquals(List.of(75L, 150L, 300L, 600L, 750L, 750L), delays(drawing(0.5), 6));
        RetrySchedule random = new RetrySchedule(10, Duration.ofMillis(100), Duration.ofSeconds(1));
        for (int failures = 1; failures <= 10; failures++) {
            long nominal = Math.min(100L << (failures - 1), 1000);
            long delay = random.delayAfter(failures).toMillis();
            assertTrue(delay >= nominal / 2 && delay <= nominal, failures + " failures: " + delay + " ms");
        }
    }

    @Test
    void manyFailuresStayAtTheMaximum() {
        assertEquals(Duration.ofMillis(500), drawing(0).delayAfter(Integer.MAX_VALUE));
    }

    @Test
    void theAttemptsAreBounded() {
        RetrySchedule schedule = new RetrySchedule(3, Duration.ofMillis(1), Duration.ofMillis(1));
        assertTrue(schedule.allowsAnother(2));
        assertFalse(schedule.allowsAnother(3), "the third send was the last");
    }
}
