package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class WindowsTest {

    @Test
    void eachTaskCountIsTheMeanOfItsWindowsThereAndBack() {
        Windows w = new Windows();
        // a machine slowing down by 10 records/s per window: the palindrome gives both counts the same drift
        w.add(2, new Throughput(100, List.of(50.0, 50.0)), 3);
        w.add(3, new Throughput(90, List.of(45.0, 45.0, 0.0)), 4);
        w.add(3, new Throughput(80, List.of(40.0, 40.0, 0.0)), 5);
        w.add(2, new Throughput(70, List.of(35.0, 35.0)), 6.25);
        List<ScenarioResult.Point> points = w.points();
        assertEquals(new ScenarioResult.Point(2, 85, List.of(42.5, 42.5)), points.get(0));
        assertEquals(new ScenarioResult.Point(3, 85, List.of(42.5, 42.5, 0.0)), points.get(1));
        assertEquals(List.of("2 task(s): windows 100.0 (load 3.0), 70.0 (load 6.3) records/s",
                "3 task(s): windows 90.0 (load 4.0), 80.0 (load 5.0) records/s"), w.describe());
    }
}
