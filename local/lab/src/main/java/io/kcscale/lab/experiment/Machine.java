package io.kcscale.lab.experiment;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine a run measures on: its figures depend on it, and on what else runs there, as much as on the code. */
public final class Machine {

    private Machine() {}

    /** The system's one-minute load average, to two decimals: how busy the cores were around a measurement. */
    public static double loadAverage() {
        return Math.round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() * 100) / 100.0;
    }

    /** The reports' closing line. */
    static String note() {
        return "Load average at the end: " + loadAverage() + " on "
                + Runtime.getRuntime().availableProcessors()
                + " cores, the stack's own processes included: the figures are this machine's, and move with whatever else runs on it.\n";
    }

    public static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("loadAverage", loadAverage());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("java", System.getProperty("java.version"));
        return m;
    }
}
