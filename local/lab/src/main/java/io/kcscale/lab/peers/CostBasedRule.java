package io.kcscale.lab.peers;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A cost-based rule in the manner of Apache Druid's cost-based autoscaler: every period it prices each task
 * count between the bounds as a weighted sum of a lag cost (seconds the backlog, grown by a period of arrivals
 * the count cannot keep up with, takes to drain at that count, in units of the latency target) and an idle cost (tasks left idle by the offered rate at that count), and
 * moves to the cheapest only when that saves at least a minimum share of the current count's cost — the
 * damping against flapping. Weights and period are Druid's documented defaults (lag 0.4, idle 0.6, 120 s);
 * the per-task rate is the one a careful operator measured, as every peer gets it.
 */
public final class CostBasedRule extends PeerRule {

    public static final String NAME = "cost-based";
    public static final long PERIOD_MILLIS = 120_000;
    public static final double LAG_WEIGHT = 0.4;
    public static final double IDLE_WEIGHT = 0.6;
    public static final double MIN_COST_DROP = 0.1;

    public CostBasedRule(double perTaskRate, double targetLatencySeconds, int minTasks, int maxTasks) {
        super(NAME, PERIOD_MILLIS, perTaskRate, targetLatencySeconds, minTasks, maxTasks);
    }

    /** The price of running {@code tasks} against this observation's backlog and offered rate. */
    double cost(int tasks, Observation o) {
        double capacity = tasks * perTaskRate;
        double projectedLag = o.lag() + Math.max(0, o.appendRate() - capacity) * PERIOD_MILLIS / 1000.0;
        double drainSeconds = projectedLag / capacity;
        double idleTasks = tasks * Math.max(0, 1 - o.appendRate() / capacity);
        return LAG_WEIGHT * drainSeconds / targetLatencySeconds + IDLE_WEIGHT * idleTasks;
    }

    @Override
    public Decision decide(Observation o, PolicyMemory m) {
        int best = o.tasks();
        double current = cost(o.tasks(), o);
        double bestCost = current;
        for (int n = bounds.minTasks(); n <= bounds.cap(o); n++) {
            double c = cost(n, o);
            if (c < bestCost) {
                best = n;
                bestCost = c;
            }
        }
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("lag", o.lag());
        in.put("appendRate", o.appendRate());
        in.put("currentCost", current);
        in.put("bestTasks", best);
        in.put("bestCost", bestCost);
        if (best == o.tasks() || current - bestCost < MIN_COST_DROP * current) {
            return new Decision(
                    o.atMillis(),
                    Decision.Action.NONE,
                    o.tasks(),
                    o.tasks(),
                    "cheapest",
                    "no task count costs " + Math.round(MIN_COST_DROP * 100) + "% less than " + o.tasks(),
                    in);
        }
        return new Decision(
                o.atMillis(),
                best > o.tasks() ? Decision.Action.SCALE_UP : Decision.Action.SCALE_DOWN,
                o.tasks(),
                best,
                "cost",
                String.format(
                        java.util.Locale.ROOT,
                        "cost %.2f at %d tasks -> %.2f at %d",
                        current,
                        o.tasks(),
                        bestCost,
                        best),
                in);
    }
}
