package io.kcscale.lab.chaos;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** Rounds of the replicas' answers to which one leads, in order: when there was a leader, and who. */
record LeaderTimeline(List<Sample> samples) {

    /**
     * One round of answers.
     *
     * @param leaders the ids of the replicas that answered {@code leader: true} with autoscaling on
     */
    record Sample(long atMillis, List<String> leaders) {}

    LeaderTimeline {
        samples = List.copyOf(samples);
    }

    /** The id of the one replica that led at the latest sample, if one did. */
    Optional<String> leader() {
        return samples.isEmpty() || samples.get(samples.size() - 1).leaders().size() != 1
                ? Optional.empty()
                : Optional.of(samples.get(samples.size() - 1).leaders().get(0));
    }

    /**
     * Seconds from {@code fromMillis} to the first sample that shows a leader other than {@code not} (the replica a
     * disruption hit while it led, if it did); empty when none did yet.
     */
    OptionalDouble leaderAfter(long fromMillis, String not) {
        for (Sample s : samples) {
            if (s.atMillis() >= fromMillis && s.leaders().stream().anyMatch(l -> !l.equals(not))) {
                return OptionalDouble.of((s.atMillis() - fromMillis) / 1000.0);
            }
        }
        return OptionalDouble.empty();
    }

    /** Seconds between {@code fromMillis} and {@code toMillis} in which no replica led, from one sample to the next. */
    double secondsWithoutLeader(long fromMillis, long toMillis) {
        long without = 0;
        for (int i = 0; i + 1 < samples.size(); i++) {
            Sample s = samples.get(i);
            if (s.atMillis() >= fromMillis
                    && s.atMillis() < toMillis
                    && s.leaders().isEmpty()) {
                without += Math.min(samples.get(i + 1).atMillis(), toMillis) - s.atMillis();
            }
        }
        return without / 1000.0;
    }

    /** How often the leader changed, over the samples that show one. */
    int takeovers() {
        String last = null;
        int changes = 0;
        for (Sample s : samples) {
            if (s.leaders().size() == 1) {
                String now = s.leaders().get(0);
                if (last != null && !last.equals(now)) {
                    changes++;
                }
                last = now;
            }
        }
        return changes;
    }

    /** Samples in which more than one replica said it led. */
    long twoLeaders() {
        return samples.stream().filter(s -> s.leaders().size() > 1).count();
    }
}
