package io.kcscale.lab.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TimeLagTest {

    @Test
    void aSinkThatKeepsUpHasNoLag() {
        TimeLag lag = new TimeLag();
        assertEquals(0, lag.sample(1000, 100, 100));
        assertEquals(0, lag.sample(2000, 200, 200));
        assertEquals(0, lag.maxSeconds());
    }

    @Test
    void theLagIsTheAgeOfTheFirstReadingPastTheCommittedPosition() {
        TimeLag lag = new TimeLag();
        lag.sample(1000, 100, 100);
        lag.sample(2000, 200, 100); // the sink stopped at 100
        lag.sample(3000, 300, 100);
        assertEquals(3.0, lag.sample(5000, 500, 100), 1e-9, "records past 100 were there by 2 s");
        assertEquals(1.0, lag.sample(6000, 600, 450), 1e-9, "records past 450 were there by 5 s");
        assertEquals(0, lag.sample(7000, 700, 700));
        assertEquals(3.0, lag.maxSeconds(), 1e-9);
    }
}
