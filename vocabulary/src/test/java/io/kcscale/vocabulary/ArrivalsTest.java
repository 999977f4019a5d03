package io.kcscale.vocabulary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ArrivalsTest {

    @Test
    void configNamesAreTheLowerCaseNamesAndReadBack() {
        assertEquals(List.of("steady", "poisson", "bursts"), Arrivals.configNames());
        for (Arrivals arrivals : Arrivals.values()) {
            assertEquals(arrivals, Arrivals.fromConfig(arrivals.configName()));
        }
        assertEquals(Arrivals.POISSON, Arrivals.fromConfig("Poisson"));
        assertThrows(IllegalArgumentException.class, () -> Arrivals.fromConfig("constant"), "steady is its one name");
    }
}
