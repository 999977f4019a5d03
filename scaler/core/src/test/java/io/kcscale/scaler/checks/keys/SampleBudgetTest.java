package io.kcscale.scaler.checks.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kcscale.scaler.input.InvalidInputException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SampleBudgetTest {

    @Test
    void unsetMeansTheDefaults() {
        assertEquals(SampleBudget.DEFAULT, SampleBudget.parse(null, null));
        assertEquals(new SampleBudget(100_000, Duration.ofSeconds(5)), SampleBudget.DEFAULT);
    }

    @Test
    void theEdgesAreAccepted() {
        assertEquals(new SampleBudget(1, Duration.ofMillis(100)), SampleBudget.parse("1", "0.1"));
        assertEquals(new SampleBudget(10_000_000, Duration.ofSeconds(60)), SampleBudget.parse("10000000", "60"));
    }

    @ParameterizedTest(name = "records {0}, seconds {1}: {2}")
    @CsvSource({
        "0, 5, sampleRecords",
        "10000001, 5, sampleRecords",
        "1.5, 5, sampleRecords",
        "many, 5, sampleRecords",
        "10, 0.09, sampleSeconds",
        "10, 60.01, sampleSeconds",
        "10, NaN, sampleSeconds",
        "10, '', sampleSeconds"
    })
    void outOfRangeOrNotANumberNamesTheInput(String records, String seconds, String field) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> SampleBudget.parse(records, seconds));
        assertEquals(field, e.field());
    }
}
