package io.kcscale.lab.experiment;

import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkMode;
import io.kcscale.scaler.checks.Finding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The two speed humps field reports hit, reproduced on one stack, each scenario on a topic and index
 * of its own: the key hump (keyed by {@code side}, two values, three tasks deliver what two do and one
 * idles; keyed by {@code price}, tasks add up as far as the cores allow) and the shard hump (three
 * tasks into a 1-shard index against a 3-shard one). Each point is the median of the tasks' full-speed
 * windows at that count, the counts compared taken in turn (see {@link Windows}), after a warm-up that
 * lasts until two windows in a row agree (see {@link WarmUp}).
 */
public final class Humps {

    public static final int PARTITIONS = 20;
    static final SinkMode SINK_MODE = SinkMode.INDEX;
    /**
     * {@code --quick}'s full-speed window, shorter than other experiments' so that each compared task
     * count gets three windows, and a median, in about the time two longer ones took.
     */
    private static final Duration QUICK_WINDOW = Duration.ofSeconds(5);
    /** Windows of the same work on a busy two-core machine land within about this share of each other once warm. */
    private static final double WARM_TOLERANCE = 0.15;

    /**
     * A named scenario: where it runs, and the task counts it measures in order, taken in turn (see
     * {@link Windows}); {@code --quick} measures fewer counts.
     */
    public record Scenario(String name, PipelineLayout layout, List<Integer> sequence, List<Integer> quickSequence) {

        List<Integer> tasks(boolean quick) {
            return quick ? quickSequence : sequence;
        }

        int mostTasks() {
            return sequence.stream().mapToInt(Integer::intValue).max().orElseThrow();
        }
    }

    public static final List<Scenario> SCENARIOS = List.of(
            scenario("key-hump-side", 1, "side", List.of(1, 2, 3, 3, 2, 1), List.of(2, 3, 3, 2, 2, 3)),
            scenario("key-hump-price", 1, "price", List.of(1, 2, 3, 3, 2, 1), List.of(1, 3, 3, 1, 1, 3)),
            scenario("shard-hump-1", 1, "price", List.of(3, 3), List.of(3)),
            scenario("shard-hump-3", 3, "price", List.of(3, 3), List.of(3)));

    private static Scenario scenario(
            String name, int shards, String keyField, List<Integer> sequence, List<Integer> quickSequence) {
        return new Scenario(
                name,
                new PipelineLayout("kcscale-" + name, PARTITIONS, shards, keyField, SINK_MODE),
                sequence,
                quickSequence);
    }

    /** The humps' timing: {@link Timing#of}, with {@link #QUICK_WINDOW} under {@code --quick}. */
    public static Timing timing(boolean quick) {
        return quick ? Timing.QUICK.withWindow(QUICK_WINDOW) : Timing.FULL;
    }

    /** When the warm-up is over: at most 4 windows under {@code --quick} (about half a minute), 6 otherwise. */
    static WarmUp warmUp(boolean quick) {
        return new WarmUp(WARM_TOLERANCE, quick ? 4 : 6);
    }

    /** @param connectorConfigs each scenario's source and sink configs as run, by scenario name */
    public record Result(
            List<ScenarioResult> scenarios, Map<String, Map<String, Map<String, String>>> connectorConfigs) {}

    private Humps() {}

    /** Starts a fresh stack in {@code dataDir}, runs every scenario, stops it. */
    public static Result run(
            Path home,
            Path dataDir,
            Timing timing,
            boolean quick,
            long seed,
            int sinkLatencyMs,
            Consumer<String> progress) {
        try (LocalStack stack =
                        ExperimentStack.start(home, dataDir, PARTITIONS, SINK_MODE, sinkLatencyMs, 0, progress);
                ExperimentPipeline pipeline = new ExperimentPipeline(stack)) {
            FullSpeed fullSpeed = new FullSpeed(pipeline, timing, progress);
            List<ScenarioResult> results = new ArrayList<>();
            Map<String, Map<String, Map<String, String>>> configs = new LinkedHashMap<>();
            double perTask = FullSpeed.firstGuessPerTask(SINK_MODE);
            for (Scenario s : SCENARIOS) {
                progress.accept("scenario " + s.name() + ": key " + s.layout().keyField() + ", "
                        + s.layout().shards() + " shard(s), tasks " + s.tasks(quick));
                pipeline.prepare(s.layout(), s.mostTasks(), seed);
                configs.put(s.name(), pipeline.connectorConfigs());
                List<Finding> findings =
                        PreRunChecks.raised(pipeline, s.mostTasks(), dataDir.resolve("experiment-scaler"), progress);
                Measurement m = new Measurement(fullSpeed, perTask);
                List<Integer> sequence = s.tasks(quick);
                if (results.isEmpty()) {
                    sequence = m.warmUp(sequence, warmUp(quick));
                }
                sequence.forEach(m::measure);
                perTask = m.perTask();
                results.add(m.result(s.name(), findings));
            }
            return new Result(List.copyOf(results), configs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One scenario's windows as they are taken, and what qualifies them. */
    private static final class Measurement {

        private final FullSpeed fullSpeed;
        private final Windows windows = new Windows();
        private final List<String> notes = new ArrayList<>();
        /** Records/s per task to size the next backlog by: the most seen so far. */
        private double perTask;

        Measurement(FullSpeed fullSpeed, double perTask) {
            this.fullSpeed = fullSpeed;
            this.perTask = perTask;
        }

        /**
         * Warms the sink up at the sequence's first count. Its last window is measured like the ones after
         * it, so it stands for that first count's first window.
         *
         * @return the rest of the sequence
         */
        List<Integer> warmUp(List<Integer> sequence, WarmUp rule) {
            int tasks = sequence.get(0);
            FullSpeed.Warm warm = fullSpeed.warmUp(tasks, perTask * tasks, rule);
            notes.add(rule.describe(tasks, warm.windows()));
            add(tasks, warm.last());
            return sequence.subList(1, sequence.size());
        }

        void measure(int tasks) {
            add(tasks, fullSpeed.measure(tasks, perTask * tasks));
        }

        double perTask() {
            return perTask;
        }

        ScenarioResult result(String name, List<Finding> findings) {
            List<String> all = new ArrayList<>(notes);
            all.addAll(windows.describe());
            return new ScenarioResult(name, windows.points(), findings, List.copyOf(all));
        }

        private void add(int tasks, FullSpeedResult full) {
            windows.add(tasks, full.throughput(), Machine.loadAverage());
            perTask = Math.max(perTask, full.throughput().total() / tasks);
            if (full.ranDry()) {
                notes.add(tasks + " task(s): the backlog ran out during a window, so that window is a lower bound");
            }
        }
    }
}
