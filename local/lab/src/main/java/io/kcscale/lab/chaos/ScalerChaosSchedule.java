package io.kcscale.lab.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Which disruption comes when, from a seed: each kind {@code rounds} times, in an order the seed shuffles, each at a
 * seeded point of the middle half of its slot of the window. Two of three hit the replica that leads at the time
 * (where a disruption tests something), the others a follower. A freeze and a cut outlast the lease by a seeded
 * fifth to {@code 0.2 + spread} of a term, so that another replica must take over; a killed replica stays down a few
 * seconds.
 *
 * @param windowSeconds the time the disruptions fall in
 */
public record ScalerChaosSchedule(long seed, double windowSeconds, List<Scheduled> disruptions) {

    /**
     * @param onLeader      whether it hits the replica that leads at the time, or a follower
     * @param holdSeconds   how long the replica stays frozen, cut or down
     */
    public record Scheduled(double atSeconds, ScalerDisruption disruption, boolean onLeader, double holdSeconds) {}

    public ScalerChaosSchedule {
        disruptions = List.copyOf(disruptions);
    }

    /** @param leaseSeconds the scaler's lease term: a freeze or a cut outlasts it */
    public static ScalerChaosSchedule create(
            long seed, double windowSeconds, int rounds, double leaseSeconds, double spread) {
        if (!(windowSeconds > 0) || rounds < 1 || !(leaseSeconds > 0) || !(spread >= 0)) {
            throw new IllegalArgumentException("a schedule needs a positive window, rounds and lease");
        }
        Random random = new Random(seed);
        List<ScalerDisruption> order = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            order.addAll(List.of(ScalerDisruption.values()));
        }
        Collections.shuffle(order, random);
        double slot = windowSeconds / order.size();
        List<Scheduled> scheduled = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            ScalerDisruption d = order.get(i);
            double at = slot * (i + 0.25 + 0.5 * random.nextDouble());
            double hold = switch (d) {
                case FREEZE, CUT -> leaseSeconds * (1.2 + spread * random.nextDouble());
                case KILL -> 2 + 4 * random.nextDouble();
                case RESTART -> 0;
            };
            scheduled.add(
                    new Scheduled(Math.round(at * 10) / 10.0, d, random.nextInt(3) < 2, Math.round(hold * 10) / 10.0));
        }
        return new ScalerChaosSchedule(seed, windowSeconds, scheduled);
    }
}
