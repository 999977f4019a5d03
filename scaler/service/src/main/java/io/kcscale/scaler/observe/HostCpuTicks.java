package io.kcscale.scaler.observe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The host's processor time so far, from the kernel's counters ({@code /proc/stat}'s {@code cpu} line, in
 * clock ticks summed over all processors): two readings give the share of the time in between that the
 * processors were in use. Waiting for I/O counts as idle, as the kernel's tools count it.
 *
 * @param busy  ticks spent running anything (user, nice, system, interrupts, stolen by a hypervisor)
 * @param total every tick, idle and I/O wait included
 */
record HostCpuTicks(long busy, long total) {

    private static final Path STAT = Path.of("/proc/stat");

    /** The counters now; empty where the host has no {@code /proc/stat} (not Linux) or it cannot be read. */
    static Optional<HostCpuTicks> read() {
        try {
            // the all-processor line comes first: stop there (the interrupt lines after it run to kilobytes)
            try (Stream<String> lines = Files.lines(STAT)) {
                return lines.filter(l -> l.startsWith("cpu ")).findFirst().flatMap(HostCpuTicks::parse);
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The {@code cpu} line: user nice system idle iowait irq softirq steal (guest time is already in user). */
    static Optional<HostCpuTicks> parse(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 9 || !f[0].equals("cpu")) {
            return Optional.empty();
        }
        try {
            long total = 0;
            for (int i = 1; i <= 8; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            return Optional.of(new HostCpuTicks(total - idle, total));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The share of the time since {@code earlier} that the processors were in use; NaN when no tick passed. */
    double busySince(HostCpuTicks earlier) {
        long ticks = total - earlier.total;
        return ticks > 0 ? Math.min(1, Math.max(0, (busy - earlier.busy) / (double) ticks)) : Double.NaN;
    }
}
