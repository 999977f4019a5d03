package io.kcscale.lab.simulator;

import io.kcscale.scaler.autoscale.AutoscaleEvaluator;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SampleWindow;
import io.kcscale.scaler.service.ScalerSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One policy autoscaling a simulated pipeline through a load trace, in fixed steps. Every sample
 * interval the pipeline's sample enters a {@link SampleWindow}, and the policy decides through the live autoscaler's
 * {@link AutoscaleEvaluator}, so it decides from exactly what the live scaler would derive, by the same holds; a scale
 * takes effect after the rebalance pause. The policy's
 * clock starts at a seeded phase of its interval: the load does not know when the autoscaler looks.
 * Pure and deterministic per seed. Each instance runs once.
 */
public final class Simulation {

    /** The live autoscaler's decision path, its holds included, with Connect's default reassignment delay. */
    private static final AutoscaleEvaluator EVALUATOR = new AutoscaleEvaluator(ScalerSettings.DEFAULT_REBALANCE_DELAY);

    private final LoadTrace trace;
    private final SimulationSettings settings;
    private final SimulatedPipeline pipeline;
    private final PartitionArrivals arrivals;
    private final double clockPhase;
    private boolean ran;

    public Simulation(LoadTrace trace, SimulationSettings settings) {
        this.trace = trace;
        this.settings = settings;
        SplittableRandom random = new SplittableRandom(settings.seed());
        this.pipeline = new SimulatedPipeline(settings);
        this.arrivals = new PartitionArrivals(
                KeySpace.partitionWeights(
                        settings.partitions(), settings.keyCardinality(), settings.keySkew(), random.nextLong()),
                new PoissonSampler(random.split()));
        this.clockPhase = clockPhase(settings.seed());
    }

    /** Where within its interval a policy's first evaluation falls, for a seed (the same live and simulated). */
    public static double clockPhase(long seed) {
        return new SplittableRandom(~seed).nextDouble();
    }

    public Timeline run(ScalingRule policy) {
        if (ran) {
            throw new IllegalStateException("a simulation runs once; make a new one for another run");
        }
        ran = true;
        long durationMillis = Math.round(trace.durationSeconds() * 1000);
        long sampleMillis = Math.round(settings.sampleIntervalSeconds() * 1000);
        long intervalMillis = policy.evaluationIntervalMillis();
        double stepSeconds = settings.stepMillis() / 1000.0;
        SampleWindow window = new SampleWindow(Math.round(settings.windowSeconds() * 1000));
        PolicyMemory memory = new PolicyMemory();
        List<Timeline.Point> points = new ArrayList<>();
        List<ScalingAction> actions = new ArrayList<>();
        long nextSample = 0;
        long nextEvaluation = Math.max(settings.stepMillis(), Math.round(clockPhase * intervalMillis));
        for (long now = 0; now < durationMillis; now += settings.stepMillis()) {
            LoadPhase phase = trace.phaseAt(now / 1000.0);
            if (now >= nextSample) {
                window.add(pipeline.sample(now));
                PipelineSnapshot snapshot = window.snapshot().orElseThrow();
                points.add(Timeline.Point.of(now / 1000.0, phase.ratePerSecond(), snapshot, pipeline.tasks()));
                nextSample += sampleMillis;
            }
            if (now >= nextEvaluation) {
                Decision d = EVALUATOR.evaluate(
                        SimulatedPipeline.CONNECTOR, window.snapshot(), List.of(), policy, memory, now);
                if (d.scales() && d.toTasks() != pipeline.tasks()) {
                    pipeline.scaleTo(d.toTasks(), now);
                    policy.applied(d, settings.rebalancePauseSeconds(), memory);
                    actions.add(new ScalingAction(
                            now / 1000.0,
                            d.fromTasks(),
                            d.toTasks(),
                            d.code(),
                            d.reason(),
                            settings.rebalancePauseSeconds()));
                }
                nextEvaluation += intervalMillis;
            }
            pipeline.arrive(arrivals.next(phase, stepSeconds));
            pipeline.consume(now, stepSeconds);
        }
        return new Timeline(policy.name(), settings.initialTasks(), trace.durationSeconds(), points, actions);
    }

    /** Records appended to the topic so far. */
    public long recordsIn() {
        return pipeline.appended();
    }

    /** Records the sink wrote so far. */
    public long recordsOut() {
        return pipeline.written();
    }

    /** Records appended and not yet written, counted from the offsets and the batches in flight. */
    public long backlog() {
        return pipeline.unwritten();
    }

    SimulatedPipeline pipeline() {
        return pipeline;
    }
}
