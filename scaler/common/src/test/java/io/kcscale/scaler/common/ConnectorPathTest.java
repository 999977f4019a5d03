package io.kcscale.scaler.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ConnectorPathTest {

    @Test
    void aNameIsOnePercentEncodedSegmentWithSpacesAsPercent20() {
        assertEquals("stocks-es-sink", ConnectorPath.segment("stocks-es-sink"));
        assertEquals("my%20sink%2Fv2%3Fx%2By", ConnectorPath.segment("my sink/v2?x+y"));
    }
}
