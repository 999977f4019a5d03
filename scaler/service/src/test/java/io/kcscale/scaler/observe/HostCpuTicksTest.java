package io.kcscale.scaler.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class HostCpuTicksTest {

    @Test
    void theCpuLineCountsIoWaitAsIdleAndGuestTimeOnce() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        HostCpuTicks t = HostCpuTicks.parse("cpu  100 5 40 800 50 3 2 0 30 0").orElseThrow();
        assertEquals(new HostCpuTicks(150, 1000), t);
        assertEquals(
                Optional.empty(),
                HostCpuTicks.parse("cpu0 100 5 40 800 50 3 2 0 0 0"),
                "one processor's line is not the host's");
        assertEquals(Optional.empty(), HostCpuTicks.parse("cpu 100 5 40"));
        assertEquals(Optional.empty(), HostCpuTicks.parse("cpu 100 5 40 800 50 3 2 x 0 0"));
    }

    @Test
    void theShareInUseIsTheBusyTicksOverEveryTickBetweenTwoReadings() {
        HostCpuTicks before = new HostCpuTicks(150, 1000);
        assertEquals(0.91, new HostCpuTicks(150 + 182, 1000 + 200).busySince(before), 1e-9);
        assertTrue(Double.isNaN(before.busySince(before)), "no tick passed: nothing to say");
    }

    @Test
    void thisHostGivesItsCounters() {
        // the suite runs on Linux, as Connect workers do
        HostCpuTicks now = HostCpuTicks.read().orElseThrow();
        assertTrue(now.total() > 0 && now.busy() >= 0 && now.busy() <= now.total(), now.toString());
    }
}
