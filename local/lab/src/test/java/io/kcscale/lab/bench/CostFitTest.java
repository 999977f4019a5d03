package io.kcscale.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.lab.bench.CostFit.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

class CostFitTest {

    /** Points on 20 + 0.5 × connectors + 0.01 × partitions exactly, the partitions per connector varying. */
    private static final List<Sample> ON_THE_PLANE = List.of(
            new Sample(1, 50, 20.5 + 0.5),
            new Sample(10, 500, 20 + 5 + 5),
            new Sample(50, 2_500, 20 + 25 + 25),
            new Sample(100, 5_000, 20 + 50 + 50),
            new Sample(200, 5_500, 20 + 100 + 55),
            new Sample(300, 15_000, 20 + 150 + 150));

    @Test
    void recoversTheCoefficientsOfPointsOnAPlane() {
        CostFit fit = CostFit.of(ON_THE_PLANE).orElseThrow();
        assertEquals(20, fit.base(), 1e-6);
        assertEquals(0.5, fit.perConnector(), 1e-9);
        assertEquals(0.01, fit.perPartition(), 1e-9);
        assertEquals(1, fit.rSquared(), 1e-12);
        assertEquals(6, fit.points());
        assertEquals(20 + 250 + 250, fit.at(500, 25_000), 1e-6);
    }

    @Test
    void noiseLowersRSquaredAndLeastSquaresSplitsIt() {
        // the plane of ON_THE_PLANE with +-4 ms alternately: the residuals cannot all vanish
        double[] noise = {4, -4, 4, -4, 4, -4};
        List<Sample> noisy = new java.util.ArrayList<>();
        for (int i = 0; i < ON_THE_PLANE.size(); i++) {
            Sample s = ON_THE_PLANE.get(i);
            noisy.add(new Sample(s.connectors(), s.partitions(), s.cost() + noise[i]));
        }
        CostFit fit = CostFit.of(noisy).orElseThrow();
        assertTrue(fit.rSquared() < 1 && fit.rSquared() > 0.99, "R^2 " + fit.rSquared());
        assertEquals(0.5, fit.perConnector(), 0.1);
        assertEquals(0.01, fit.perPartition(), 0.002);
        double sumOfResiduals = 0;
        for (Sample s : noisy) {
            sumOfResiduals += s.cost() - fit.at(s.connectors(), s.partitions());
        }
        // least squares with an intercept: the residuals sum to zero
        assertEquals(0, sumOfResiduals, 1e-9);
    }

    @Test
    void theSamePartitionsPerConnectorEverywhereCannotBeSplit() {
        assertTrue(CostFit.of(List.of(
                        new Sample(1, 50, 30),
                        new Sample(10, 500, 60),
                        new Sample(50, 2_500, 100),
                        new Sample(100, 5_000, 180)))
                .isEmpty());
    }

    @Test
    void tooFewPointsOrUnmeasuredOnesGiveNoFit() {
        assertTrue(CostFit.of(ON_THE_PLANE.subList(0, 3)).isEmpty());
        assertTrue(CostFit.of(List.of()).isEmpty());
        List<Sample> withNaN = List.of(
                ON_THE_PLANE.get(0), ON_THE_PLANE.get(1), ON_THE_PLANE.get(4), new Sample(400, 20_000, Double.NaN));
        assertTrue(CostFit.of(withNaN).isEmpty(), "a point with no rounds is left out, leaving three");
    }

    @Test
    void aFlatCostFitsExactly() {
        List<Sample> flat = ON_THE_PLANE.stream()
                .map(s -> new Sample(s.connectors(), s.partitions(), 42))
                .toList();
        CostFit fit = CostFit.of(flat).orElseThrow();
        assertEquals(42, fit.base(), 1e-9);
        assertEquals(0, fit.perConnector(), 1e-12);
        assertEquals(0, fit.perPartition(), 1e-12);
        assertEquals(1, fit.rSquared());
    }
}
