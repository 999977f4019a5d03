package io.kcscale.scaler.chart;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LineChartTest {

    private static String chart(double... y) {
        double[] x = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            x[i] = i + 1;
        }
        return new LineChart("t", "sink tasks", "records/s")
                .wholeNumbersOnX()
                .add(new LineChart.Series("s", "#000", null, LineChart.Shape.POINTS, x, y))
                .svg();
    }

    @Test
    void ticksAreRoundAndCarryTheDecimalsTheirStepNeeds() {
        String thousands = chart(900, 1800, 2700);
        assertTrue(
                thousands.contains(">3,000</text>") && thousands.contains(">500</text>"), "steps of 500 up to 3,000");
        String quarters = chart(0.4, 0.9, 1.4);
        assertTrue(
                quarters.contains(">0.25</text>") && quarters.contains(">1.50</text>"),
                "steps of 0.25 keep two decimals");
        String halves = chart(5, 10, 14);
        assertTrue(halves.contains(">2.5</text>") && halves.contains(">15.0</text>"), "steps of 2.5 keep one");
        assertTrue(halves.contains(">3</text>") && !halves.contains(">1.5</text>"), "tasks tick on whole numbers");
    }
}
