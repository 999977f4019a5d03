package io.kcscale.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BrokerHeapTest {

    @Test
    void unsetIsTheDefaultAndASizeIsTakenAsGiven() {
        assertEquals("512m", ComponentStarter.brokerHeap(null));
        assertEquals("512m", ComponentStarter.brokerHeap(" "));
        assertEquals("2g", ComponentStarter.brokerHeap(" 2G "));
        assertEquals("1536m", ComponentStarter.brokerHeap("1536m"));
    }

    @Test
    void anythingElseIsOneLineSayingWhatToGive() {
        for (String bad : new String[] {"2", "0g", "2gb", "-Xmx2g", "2g -XX:+Foo", "9999999m"}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> ComponentStarter.brokerHeap(bad), bad);
            assertEquals(
                    "KCSCALE_BROKER_HEAP must be a heap size such as 512m or 2g, got '" + bad + "'", e.getMessage());
        }
    }
}
