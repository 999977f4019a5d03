package io.kcscale.lab.chaos;

import io.kcscale.local.StackOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Which faults come when, from a seed: the same seed and sizes give the same schedule. Each fault kind
 * comes once (malformed records in several batches), in an order the seed shuffles, except that the
 * scale to 3 tasks always precedes the scale to 2. The window is cut into one slot per fault and each
 * fault is due at a seeded point of the middle half of its slot, so faults neither bunch up nor fall
 * on a fixed beat.
 *
 * @param malformed records that are no JSON document, over all batches
 */
public record ChaosSchedule(long seed, double windowSeconds, List<ScheduledFault> faults, int malformed) {

    public ChaosSchedule {
        faults = List.copyOf(faults);
    }

    /**
     * @param workers          Connect workers in the group: the one killed is drawn among them
     * @param partitions       partitions of the topic: each malformed record's is drawn among them
     * @param malformedBatches how many times malformed records are produced
     * @param malformedPerBatch records per batch
     */
    public static ChaosSchedule create(
            long seed, double windowSeconds, int workers, int partitions, int malformedBatches, int malformedPerBatch) {
        if (!(windowSeconds > 0) || workers < 1 || partitions < 1 || malformedBatches < 0 || malformedPerBatch < 1) {
            throw new IllegalArgumentException(
                    "a schedule needs a positive window, workers, partitions and batch size");
        }
        Random random = new Random(seed);
        List<Fault> order = new ArrayList<>(List.of(
                Fault.WORKER_KILL, Fault.ELASTICSEARCH_KILL, Fault.BROKER_RESTART, Fault.SCALE_TO_3, Fault.SCALE_TO_2));
        order.addAll(Collections.nCopies(malformedBatches, Fault.MALFORMED));
        Collections.shuffle(order, random);
        int up = order.indexOf(Fault.SCALE_TO_3);
        int down = order.indexOf(Fault.SCALE_TO_2);
        if (down < up) {
            Collections.swap(order, up, down);
        }
        double slot = windowSeconds / order.size();
        List<ScheduledFault> faults = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            double at = slot * (i + 0.25 + 0.5 * random.nextDouble());
            faults.add(scheduled(
                    order.get(i), Math.round(at * 10) / 10.0, random, workers, partitions, malformedPerBatch));
        }
        return new ChaosSchedule(seed, windowSeconds, faults, malformedBatches * malformedPerBatch);
    }

    private static ScheduledFault scheduled(
            Fault fault, double at, Random random, int workers, int partitions, int perBatch) {
        return switch (fault) {
            case WORKER_KILL -> new ScheduledFault(at, fault, "connect-" + random.nextInt(workers), List.of());
            case ELASTICSEARCH_KILL -> new ScheduledFault(at, fault, "elasticsearch", List.of());
            case BROKER_RESTART -> new ScheduledFault(at, fault, "kafka", List.of());
            case SCALE_TO_3, SCALE_TO_2 -> new ScheduledFault(at, fault, StackOptions.SINK_CONNECTOR, List.of());
            case MALFORMED ->
                new ScheduledFault(
                        at,
                        fault,
                        StackOptions.TOPIC,
                        random.ints(perBatch, 0, partitions).sorted().boxed().toList());
        };
    }
}
