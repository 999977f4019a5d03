package io.kcscale.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class CpuSharesTest {

    private final AtomicLong clock = new AtomicLong();
    private final AtomicReference<Optional<Duration>> search =
            new AtomicReference<>(Optional.of(Duration.ofSeconds(100)));
    private final AtomicReference<Optional<Duration>> worker =
            new AtomicReference<>(Optional.of(Duration.ofSeconds(40)));

    private CpuShares shares() {
        Map<String, Supplier<Optional<Duration>>> processes = new LinkedHashMap<>();
        processes.put("elasticsearch", search::get);
        processes.put("worker", worker::get);
        return new CpuShares(processes, clock::get);
    }

    @Test
    void onlyTheStretchesCountAndTheyAddUp() {
        CpuShares cpu = shares();
        CpuShares.Stretch first = cpu.begin();
        advance(Duration.ofSeconds(5), Duration.ofMillis(7_500), Duration.ofMillis(2_000));
        first.end();
        // between stretches (the other load's turn): not counted
        advance(Duration.ofSeconds(5), Duration.ofSeconds(9), Duration.ofSeconds(3));
        CpuShares.Stretch second = cpu.begin();
        advance(Duration.ofSeconds(5), Duration.ofMillis(8_500), Duration.ofMillis(2_000));
        second.end();

        // 16 s of Elasticsearch and 4 s of the worker over 10 s, for 500,000 documents
        assertEquals(32.0, cpu.msPerThousand("elasticsearch", 500_000).orElseThrow(), 1e-9);
        assertEquals(8.0, cpu.msPerThousand("worker", 500_000).orElseThrow(), 1e-9);
        assertEquals(2.0, cpu.cores().orElseThrow(), 1e-9);
    }

    @Test
    void aProcessWhoseTimeIsNotKnownLeavesEveryFigureUnknown() {
        CpuShares cpu = shares();
        CpuShares.Stretch stretch = cpu.begin();
        worker.set(Optional.empty());
        advance(Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ZERO);
        stretch.end();

        assertTrue(cpu.msPerThousand("elasticsearch", 1000).isEmpty());
        assertTrue(cpu.cores().isEmpty());
    }

    @Test
    void noDocumentsGiveNoFigurePerDocument() {
        CpuShares cpu = shares();
        CpuShares.Stretch stretch = cpu.begin();
        advance(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO);
        stretch.end();

        assertTrue(cpu.msPerThousand("elasticsearch", 0).isEmpty());
        assertEquals(1.0, cpu.cores().orElseThrow(), 1e-9);
    }

    private void advance(Duration wall, Duration searchCpu, Duration workerCpu) {
        clock.addAndGet(wall.toNanos());
        search.set(search.get().map(d -> d.plus(searchCpu)));
        worker.set(worker.get().map(d -> d.plus(workerCpu)));
    }
}
