package io.kcscale.lab.experiment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Full-speed windows of a scenario, taken in a palindromic order (1, 2, 3, 3, 2, 1): a machine that
 * speeds up or slows down during the scenario (other work starting or stopping) then shifts every
 * task count's mean alike, instead of favouring the counts measured last. Pure.
 */
final class Windows {

    private final Map<Integer, List<Throughput>> byTasks = new LinkedHashMap<>();
    private final Map<Integer, List<Double>> loads = new LinkedHashMap<>();

    /** @param loadAverage the machine's load average as the window ended */
    void add(int tasks, Throughput window, double loadAverage) {
        byTasks.computeIfAbsent(tasks, t -> new ArrayList<>()).add(window);
        loads.computeIfAbsent(tasks, t -> new ArrayList<>()).add(loadAverage);
    }

    /** Per task count, in the order first measured: the mean of its windows, in all and per task. */
    List<ScenarioResult.Point> points() {
        List<ScenarioResult.Point> points = new ArrayList<>();
        byTasks.forEach((tasks, windows) -> {
            double[] perTask = new double[tasks];
            for (Throughput w : windows) {
                for (int i = 0; i < tasks; i++) {
                    perTask[i] += w.perTask().get(i) / windows.size();
                }
            }
            points.add(new ScenarioResult.Point(tasks, windows.stream().mapToDouble(Throughput::total).average().orElseThrow(),
                    Arrays.stream(perTask).boxed().toList()));
        });
        return points;
    }

    /** Each task count's windows, for the report: how far apart the same work landed. */
    List<String> describe() {
        List<String> lines = new ArrayList<>();
        byTasks.forEach((tasks, windows) -> {
            List<String> each = new ArrayList<>();
            for (int i = 0; i < windows.size(); i++) {
                each.add(String.format(Locale.ROOT, "%.1f (load %.1f)", windows.get(i).total(), loads.get(tasks).get(i)));
            }
            lines.add(tasks + " task(s): windows " + String.join(", ", each) + " records/s");
        });
        return lines;
    }
}
