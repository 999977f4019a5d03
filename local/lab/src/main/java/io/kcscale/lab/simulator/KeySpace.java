package io.kcscale.lab.simulator;

import java.util.SplittableRandom;

/**
 * Which share of the records each partition receives. Records carry one of K keys whose popularity
 * follows Zipf's law (exponent {@code skew}; 0 makes all keys equally likely), and a key always lands
 * in the same partition. The key → partition map is seeded random, standing in for Kafka's murmur2
 * hash, which spreads keys the same way: with few keys some partitions receive nothing, and one hot key
 * pins its partition.
 */
public final class KeySpace {

    private KeySpace() {}

    /** Per partition, its share of the records; the shares sum to 1. */
    public static double[] partitionWeights(int partitions, int keys, double skew, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] weights = new double[partitions];
        double total = 0;
        for (int rank = 1; rank <= keys; rank++) {
            double popularity = skew == 0 ? 1 : Math.pow(rank, -skew);
            weights[random.nextInt(partitions)] += popularity;
            total += popularity;
        }
        for (int p = 0; p < partitions; p++) {
            weights[p] /= total;
        }
        return weights;
    }
}
