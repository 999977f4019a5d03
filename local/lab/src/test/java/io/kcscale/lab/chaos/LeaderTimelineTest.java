package io.kcscale.lab.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class LeaderTimelineTest {

    private static LeaderTimeline.Sample at(long millis, String... leaders) {
        return new LeaderTimeline.Sample(millis, List.of(leaders));
    }

    /** a leads; frozen at 1000 it stops answering; b leads from 12,000; a, thawed, answers that it follows. */
    private final LeaderTimeline timeline = new LeaderTimeline(List.of(
            at(0, "a"),
            at(500, "a"),
            at(1000),
            at(6000),
            at(11_500),
            at(12_000, "b"),
            at(12_500, "b"),
            at(13_000, "b")));

    @Test
    void aTakeoverIsTimedFromTheDisruptionToAnotherReplicaLeading() {
        assertEquals(OptionalDouble.of(11.5), timeline.leaderAfter(500, "a"), "a itself does not count");
        assertEquals(OptionalDouble.of(0.0), timeline.leaderAfter(500, ""), "for a follower's disruption, anyone");
        assertEquals(OptionalDouble.empty(), timeline.leaderAfter(13_001, ""));
        assertEquals(Optional.of("b"), timeline.leader());
        assertEquals(1, timeline.takeovers());
        assertEquals(0, timeline.twoLeaders());
    }

    @Test
    void theSecondsWithoutALeaderRunFromASampleWithoutOneToTheNextWithinTheWindow() {
        assertEquals(11.0, timeline.secondsWithoutLeader(0, 20_000));
        assertEquals(5.0, timeline.secondsWithoutLeader(0, 6000), "cut at the window's end");
        assertEquals(1, new LeaderTimeline(List.of(at(0, "a", "b"), at(250, "a"))).twoLeaders());
    }
}
