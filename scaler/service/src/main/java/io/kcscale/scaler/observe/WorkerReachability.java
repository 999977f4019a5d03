package io.kcscale.scaler.observe;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which workers have not answered the probe, and since when, over the watcher's rounds. A worker counts as not
 * answering after {@link #MISSES} rounds in a row without an answer (one slow answer on a loaded machine is no
 * death); one that answers again is forgotten. When no worker Connect names answers at all while Connect's REST API did, the addresses the
 * workers advertise are likely not reachable from the scaler (another network, pod addresses from outside the
 * cluster): the round is inconclusive and marks none. Pure: the caller gives the time.
 */
final class WorkerReachability {

    static final int MISSES = 2;

    private final Map<String, Long> since = new TreeMap<>();
    private final Map<String, Integer> misses = new TreeMap<>();
    private boolean inconclusive;

    /**
     * @param probed     the workers probed in this round
     * @param unanswered those of them that did not answer
     * @return every worker not answering now, with when it first did not (epoch millis)
     */
    Map<String, Long> update(Set<String> probed, Set<String> unanswered, long now) {
        inconclusive = !probed.isEmpty() && unanswered.containsAll(probed);
        if (inconclusive) {
            since.clear();
            misses.clear();
            return Map.of();
        }
        since.keySet().retainAll(unanswered);
        misses.keySet().retainAll(unanswered);
        Map<String, Long> unreachable = new TreeMap<>();
        unanswered.forEach(w -> {
            since.putIfAbsent(w, now);
            if (misses.merge(w, 1, Integer::sum) >= MISSES) {
                unreachable.put(w, since.get(w));
            }
        });
        return unreachable;
    }

    /** The last round heard from no worker, so it marked none. */
    boolean inconclusive() {
        return inconclusive;
    }
}
