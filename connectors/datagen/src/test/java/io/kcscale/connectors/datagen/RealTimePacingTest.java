package io.kcscale.connectors.datagen;

import static io.kcscale.connectors.datagen.TaskHarness.props;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/** The one pacing test on real time: the task, polled as a worker would, holds rate.per.task. */
class RealTimePacingTest {

    @Test
    void aTaskHoldsItsRateWithinThreePercentOverTenSeconds() throws InterruptedException {
        double rate = 500;
        DatagenTask task = TaskHarness.start(
                PacerClock.SYSTEM,
                props("kafka.topic", "trades", "quickstart", "stock_trades", "rate.per.task", Double.toString(rate)),
                null);
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(10);
        long records = 0;

        while (System.nanoTime() < end) {
            List<SourceRecord> batch = task.poll();
            records += batch == null ? 0 : batch.size();
        }

        double seconds = (System.nanoTime() - start) / 1e9;
        task.stop();
        assertEquals(rate, records / seconds, rate * 0.03, records + " records in " + seconds + " s");
    }
}
