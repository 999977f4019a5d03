package io.kcscale.scaler.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InputsTest {

    @Test
    void parsesPlainAndScientificNumbers() {
        assertEquals(10_000.0, Inputs.parse("targetRate", "10000"));
        assertEquals(10_000.0, Inputs.parse("targetRate", " 1e4 "));
        assertEquals(-5.5, Inputs.parse("targetRate", "-5.5"));
        assertNull(Inputs.parse("targetRate", null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "NaN", "Infinity", "-Infinity", "70d", "0x10", "", "10,000"})
    void refusesWhatIsNotADecimalNumber(String text) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Inputs.parse("targetRate", text));
        assertEquals("targetRate", e.field());
        assertEquals("targetRate must be a number, got '" + text + "'", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, -1, -0.0001, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void positiveRefusesZeroNegativeAndNonFinite(double value) {
        InvalidInputException e =
                assertThrows(InvalidInputException.class, () -> Inputs.positive("perTaskRate", value));
        assertEquals("perTaskRate", e.field());
        assertTrue(e.getMessage().startsWith("perTaskRate must be"), e.getMessage());
    }

    @Test
    void aMissingRequiredValueIsNamed() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Inputs.positive("targetRate", null));
        assertEquals("targetRate is required", e.getMessage());
    }

    @Test
    void utilizationIsAboveZeroAndAtMostOne() {
        assertEquals(1.0, Inputs.utilization("utilization", 1.0, 0.8));
        assertEquals(0.8, Inputs.utilization("utilization", null, 0.8));
        assertEquals(1e-9, Inputs.utilization("utilization", 1e-9, 0.8));
        for (double bad : new double[] {0, -0.5, 1.0000001, 80, Double.NaN}) {
            InvalidInputException e = assertThrows(
                    InvalidInputException.class,
                    () -> Inputs.utilization("utilization", bad, 0.8),
                    "utilization " + bad);
            assertEquals("utilization", e.field());
        }
    }

    @Test
    void quantileExcludesBothEnds() {
        assertEquals(0.5, Inputs.quantile("quantile", 0.5, 0.99));
        assertEquals(0.99, Inputs.quantile("quantile", null, 0.99));
        for (double bad : new double[] {0, 1, -0.1, 1.5}) {
            InvalidInputException e = assertThrows(
                    InvalidInputException.class, () -> Inputs.quantile("quantile", bad, 0.99), "quantile " + bad);
            assertTrue(e.getMessage().contains("between 0 and 1"), e.getMessage());
        }
    }

    @Test
    void countIsAWholeNumberThatFitsAnInt() {
        assertEquals(Integer.MAX_VALUE, Inputs.count("tasks", (double) Integer.MAX_VALUE, 1));
        assertEquals(0, Inputs.count("replicas", 0.0, 0));
        assertEquals(7, Inputs.count("replicas", null, 0, 7));
        for (double bad : new double[] {1.5, 0, -3, Integer.MAX_VALUE + 1.0, 1e300}) {
            InvalidInputException e =
                    assertThrows(InvalidInputException.class, () -> Inputs.count("tasks", bad, 1), "tasks " + bad);
            assertTrue(
                    e.getMessage().startsWith("tasks must be a whole number from 1 to 2,147,483,647"), e.getMessage());
        }
    }

    @Test
    void aPartNamesWhereInTheFieldTheProblemIs() {
        InvalidInputException e = assertThrows(
                InvalidInputException.class, () -> Inputs.count("measurements", "point 2: tasks ", 0.5, 1));
        assertEquals("measurements", e.field());
        assertEquals(
                "measurements point 2: tasks must be a whole number from 1 to 2,147,483,647, got 0.5", e.getMessage());
    }

    @Test
    void relatedFieldsAreNamedByTheFrontEnd() {
        InvalidInputException e = new InvalidInputException("quantile", "applies only with {0} poisson", "arrivals");
        assertEquals("quantile applies only with arrivals poisson", e.getMessage());
        assertEquals("--quantile applies only with --arrivals poisson", e.describe(field -> "--" + field));
    }
}
