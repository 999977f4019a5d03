package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class WindowsTest {

    @Test
    void eachTaskCountIsTheMedianOfItsWindowsTakenInTurn() {
        Windows w = new Windows();
        // 2, 3, 3, 2, 2, 3 on a machine whose other work took the fourth window down to a third
        w.add(2, new Throughput(100, List.of(50.0, 50.0)), 3);
        w.add(3, new Throughput(104, List.of(52.0, 52.0, 0.0)), 4);
        w.add(3, new Throughput(96, List.of(48.0, 48.0, 0.0)), 5);
        w.add(2, new Throughput(30, List.of(15.0, 15.0)), 6.25);
        w.add(2, new Throughput(98, List.of(48.0, 50.0)), 4);
        w.add(3, new Throughput(102, List.of(50.0, 52.0, 0.0)), 4);
        List<ScenarioResult.Point> points = w.points();
        assertEquals(new ScenarioResult.Point(2, 98, List.of(48.0, 50.0)), points.get(0));
        assertEquals(new ScenarioResult.Point(3, 102, List.of(50.0, 52.0, 0.0)), points.get(1));
        assertEquals(
                List.of(
                        "2 task(s): windows 100.0 (load 3.0), 30.0 (load 6.3), 98.0 (load 4.0) records/s",
                        "3 task(s): windows 104.0 (load 4.0), 96.0 (load 5.0), 102.0 (load 4.0) records/s"),
                w.describe());
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(7, Windows.median(List.of(7.0)));
        assertEquals(5, Windows.median(List.of(9.0, 1.0, 5.0)));
        assertEquals(4.5, Windows.median(List.of(8.0, 1.0, 4.0, 5.0)));
        assertEquals(85, Windows.median(List.of(100.0, 70.0)));
        assertThrows(IllegalArgumentException.class, () -> Windows.median(List.of()));
    }
}
