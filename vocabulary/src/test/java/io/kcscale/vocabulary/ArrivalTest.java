package io.kcscale.vocabulary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ArrivalTest {

    @Test
    void configNamesAreTheLowerCaseNamesAndReadBack() {
        assertEquals(List.of("constant", "poisson", "bursts"), Arrival.configNames());
        for (Arrival arrival : Arrival.values()) {
            assertEquals(arrival, Arrival.fromConfig(arrival.configName()));
        }
        assertEquals(Arrival.POISSON, Arrival.fromConfig("Poisson"));
        assertThrows(IllegalArgumentException.class, () -> Arrival.fromConfig("steady"));
    }
}
