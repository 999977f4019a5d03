package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.PoissonDistribution;
import org.junit.jupiter.api.Test;

class PoissonBurstTest {

    @Test
    void theQuantileIsTheSmallestCountWithEnoughProbability() {
        PoissonBurst burst = PoissonBurst.of(10, 1, 0.99);
        assertFalse(burst.approximated());
        assertEquals(18, burst.arrivals()); // P(X <= 17) = 0.9857, P(X <= 18) = 0.9928 for mean 10
        PoissonDistribution poisson = new PoissonDistribution(10);
        assertTrue(poisson.cumulativeProbability(18) >= 0.99);
        assertTrue(poisson.cumulativeProbability(17) < 0.99);
    }

    @Test
    void theWindowScalesTheMeanAndTheRateDividesBack() {
        PoissonBurst burst = PoissonBurst.of(100, 10, 0.5);
        assertEquals(1000, burst.arrivals(), 1); // the median of a Poisson is about its mean
        assertEquals(burst.arrivals() / 10, burst.ratePerSecond(10));
    }

    @Test
    void aShortWindowBurstsFurtherAboveTheMean() {
        double perSecond = PoissonBurst.of(100, 1, 0.99).ratePerSecond(1);
        double perMinute = PoissonBurst.of(100, 60, 0.99).ratePerSecond(60);
        assertTrue(perSecond > perMinute && perMinute > 100, perSecond + " vs " + perMinute);
    }

    @Test
    void largeMeansSwitchToTheNormalApproximationSeamlessly() {
        double limit = PoissonBurst.EXACT_MEAN_LIMIT;
        PoissonBurst exact = PoissonBurst.of(limit, 1, 0.99);
        PoissonBurst approximated = PoissonBurst.of(limit * (1 + 1e-9), 1, 0.99);
        assertFalse(exact.approximated());
        assertTrue(approximated.approximated());
        assertEquals(exact.arrivals(), approximated.arrivals(), 1e-5 * limit);
        // beyond the int range the exact distribution cannot count
        assertTrue(PoissonBurst.of(1e12, 1, 0.99).arrivals() > 1e12);
    }

    @Test
    void theNormalQuantileHoldsFarIntoTheLeftTail() {
        // reference values of the standard normal quantile (R's qnorm)
        assertEquals(-2.326348, PoissonBurst.standardNormalQuantile(0.01), 1e-6);
        assertEquals(-5.997807, PoissonBurst.standardNormalQuantile(1e-9), 1e-6);
        assertEquals(-8.222082, PoissonBurst.standardNormalQuantile(1e-16), 1e-6);
        assertEquals(-37.047096, PoissonBurst.standardNormalQuantile(1e-300), 1e-6);
        // Φ is subnormal there, with few significant bits left
        assertEquals(-38.467405, PoissonBurst.standardNormalQuantile(Double.MIN_VALUE), 0.02);
        // so a tiny quantile of a large mean stays a count near the mean, not -∞
        PoissonBurst low = PoissonBurst.of(1e9, 1, 1e-300);
        assertTrue(low.approximated());
        assertEquals(1e9 - 37.047096 * Math.sqrt(1e9), low.arrivals(), 1);
    }
}
