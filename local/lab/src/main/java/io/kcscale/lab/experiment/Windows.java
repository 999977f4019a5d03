package io.kcscale.lab.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Full-speed windows of a scenario, its task counts taken in turn (2, 3, 3, 2, 2, 3): a machine that
 * speeds up or slows down during the scenario (other work starting or stopping) then shifts every task
 * count alike, instead of favouring the counts measured last. Each count's figure is the median of its
 * windows, so that one window caught by a burst of other work does not move it. Pure.
 */
final class Windows {

    private final Map<Integer, List<Throughput>> byTasks = new LinkedHashMap<>();
    private final Map<Integer, List<Double>> loads = new LinkedHashMap<>();

    /** @param loadAverage the machine's load average as the window ended */
    void add(int tasks, Throughput window, double loadAverage) {
        byTasks.computeIfAbsent(tasks, t -> new ArrayList<>()).add(window);
        loads.computeIfAbsent(tasks, t -> new ArrayList<>()).add(loadAverage);
    }

    /** Per task count, in the order first measured: the median of its windows, in all and for each task. */
    List<ScenarioResult.Point> points() {
        List<ScenarioResult.Point> points = new ArrayList<>();
        byTasks.forEach((tasks, windows) -> {
            List<Double> perTask = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                int task = i;
                perTask.add(
                        median(windows.stream().map(w -> w.perTask().get(task)).toList()));
            }
            points.add(new ScenarioResult.Point(
                    tasks, median(windows.stream().map(Throughput::total).toList()), List.copyOf(perTask)));
        });
        return points;
    }

    /** The middle value, or the mean of the middle two of an even count. */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("the median of no values");
        }
        List<Double> sorted = values.stream().sorted().toList();
        int mid = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
    }

    /** Each task count's windows, for the report: how far apart the same work landed. */
    List<String> describe() {
        List<String> lines = new ArrayList<>();
        byTasks.forEach((tasks, windows) -> {
            List<String> each = new ArrayList<>();
            for (int i = 0; i < windows.size(); i++) {
                each.add(String.format(
                        Locale.ROOT,
                        "%.1f (load %.1f)",
                        windows.get(i).total(),
                        loads.get(tasks).get(i)));
            }
            lines.add(tasks + " task(s): windows " + String.join(", ", each) + " records/s");
        });
        return lines;
    }
}
