package io.kcscale.lab.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkMode;
import io.kcscale.scaler.checks.Finding;

/**
 * The two speed humps field reports hit, reproduced on one stack, each scenario on a topic and index
 * of its own: the key hump (keyed by {@code side}, two values, three tasks deliver what two do and one
 * idles; keyed by {@code price}, tasks add up as far as the cores allow) and the shard hump (three
 * tasks into a 1-shard index against a 3-shard one). Each point is the tasks' full-speed throughput.
 */
public final class Humps {

    public static final int PARTITIONS = 20;
    static final SinkMode SINK_MODE = SinkMode.INDEX;

    /**
     * A named scenario: where it runs, and the task counts it measures in order, there and back (see
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
            scenario("key-hump-side", 1, "side", List.of(1, 2, 3, 3, 2, 1), List.of(2, 3, 3, 2)),
            scenario("key-hump-price", 1, "price", List.of(1, 2, 3, 3, 2, 1), List.of(1, 3, 3, 1)),
            scenario("shard-hump-1", 1, "price", List.of(3, 3), List.of(3)),
            scenario("shard-hump-3", 3, "price", List.of(3, 3), List.of(3)));

    private static Scenario scenario(String name, int shards, String keyField, List<Integer> sequence, List<Integer> quickSequence) {
        return new Scenario(name, new PipelineLayout("kcscale-" + name, PARTITIONS, shards, keyField, SINK_MODE), sequence,
                quickSequence);
    }

    /** @param connectorConfigs each scenario's source and sink configs as run, by scenario name */
    public record Result(List<ScenarioResult> scenarios, Map<String, Map<String, Map<String, String>>> connectorConfigs) {
    }

    private Humps() {
    }

    /** Starts a fresh stack in {@code dataDir}, runs every scenario, stops it. */
    public static Result run(Path home, Path dataDir, Timing timing, boolean quick, long seed, Consumer<String> progress) {
        try (LocalStack stack = ExperimentStack.start(home, dataDir, PARTITIONS, SINK_MODE, progress);
             ExperimentPipeline pipeline = new ExperimentPipeline(stack)) {
            FullSpeed fullSpeed = new FullSpeed(pipeline, timing, progress);
            List<ScenarioResult> results = new ArrayList<>();
            Map<String, Map<String, Map<String, String>>> configs = new LinkedHashMap<>();
            double perTask = FullSpeed.firstGuessPerTask(SINK_MODE);
            for (Scenario s : SCENARIOS) {
                progress.accept("scenario " + s.name() + ": key " + s.layout().keyField() + ", " + s.layout().shards()
                        + " shard(s), tasks " + s.tasks(quick));
                pipeline.prepare(s.layout(), s.mostTasks(), seed);
                configs.put(s.name(), pipeline.connectorConfigs());
                List<Finding> findings = PreRunChecks.raised(pipeline, s.mostTasks(), dataDir.resolve("experiment-scaler"), progress);
                if (results.isEmpty()) {
                    perTask = fullSpeed.warmUp(s.tasks(quick).get(0), perTask * s.tasks(quick).get(0));
                }
                results.add(measure(s, s.tasks(quick), fullSpeed, findings, perTask));
            }
            return new Result(List.copyOf(results), configs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ScenarioResult measure(Scenario s, List<Integer> sequence, FullSpeed fullSpeed, List<Finding> findings,
            double perTaskGuess) {
        Windows windows = new Windows();
        List<String> notes = new ArrayList<>();
        double perTask = perTaskGuess;
        for (int tasks : sequence) {
            FullSpeedResult full = fullSpeed.measure(tasks, perTask * tasks);
            windows.add(tasks, full.throughput(), Machine.loadAverage());
            perTask = Math.max(perTask, full.throughput().total() / tasks);
            if (full.ranDry()) {
                notes.add(tasks + " task(s): the backlog ran out during a window, so that window is a lower bound");
            }
        }
        notes.addAll(windows.describe());
        return new ScenarioResult(s.name(), windows.points(), findings, List.copyOf(notes));
    }
}
