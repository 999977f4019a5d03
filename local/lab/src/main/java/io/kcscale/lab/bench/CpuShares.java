package io.kcscale.lab.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The CPU time a few named processes spent over a number of measured stretches, added up: where the
 * cores went while a phase ran. On a machine where the sink's worker and Elasticsearch share the
 * cores, a sink is not only as fast as the requests it sends but as cheap as its own work per
 * document, which the raw load does not pay; this says how much of each there was.
 */
final class CpuShares {

    private final Map<String, Supplier<Optional<Duration>>> processes;
    private final LongSupplier nanoClock;
    private final Map<String, Long> spentNanos = new LinkedHashMap<>();
    private long wallNanos;
    private boolean known = true;

    /** {@code processes}: each process's name and its total CPU time so far (empty when the system does not say). */
    CpuShares(Map<String, Supplier<Optional<Duration>>> processes, LongSupplier nanoClock) {
        this.processes = processes;
        this.nanoClock = nanoClock;
        processes.keySet().forEach(name -> spentNanos.put(name, 0L));
    }

    /** A stretch begins: {@link Stretch#end()} adds what each process spent in it. */
    Stretch begin() {
        return new Stretch(read(), nanoClock.getAsLong());
    }

    /** CPU time {@code process} spent per 1,000 of {@code items}, in ms; empty when a reading was missing. */
    Optional<Double> msPerThousand(String process, double items) {
        if (!known || items <= 0) {
            return Optional.empty();
        }
        return Optional.of(spentNanos.get(process) / 1e6 / (items / 1000));
    }

    /** The cores all the processes used together over the stretches, on average; empty when a reading was missing. */
    Optional<Double> cores() {
        if (!known || wallNanos <= 0) {
            return Optional.empty();
        }
        return Optional.of(
                spentNanos.values().stream().mapToLong(Long::longValue).sum() / (double) wallNanos);
    }

    private Map<String, Optional<Duration>> read() {
        Map<String, Optional<Duration>> now = new LinkedHashMap<>();
        processes.forEach((name, cpu) -> now.put(name, cpu.get()));
        return now;
    }

    final class Stretch {
        private final Map<String, Optional<Duration>> from;
        private final long fromNanos;

        private Stretch(Map<String, Optional<Duration>> from, long fromNanos) {
            this.from = from;
            this.fromNanos = fromNanos;
        }

        void end() {
            Map<String, Optional<Duration>> to = read();
            wallNanos += nanoClock.getAsLong() - fromNanos;
            to.forEach((name, cpu) -> {
                Optional<Duration> before = from.get(name);
                if (cpu.isEmpty() || before.isEmpty()) {
                    known = false;
                } else {
                    spentNanos.merge(name, cpu.get().minus(before.get()).toNanos(), Long::sum);
                }
            });
        }
    }
}
