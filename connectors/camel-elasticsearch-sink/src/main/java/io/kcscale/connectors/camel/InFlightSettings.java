package io.kcscale.connectors.camel;

import java.util.Map;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * How many bulk requests one task keeps in flight: while Elasticsearch indexes one, the task's thread
 * fills the next (Confluent's sink calls the same thing {@code max.in.flight.requests}).
 */
final class InFlightSettings {

    static final String MAX_IN_FLIGHT_REQUESTS = "kcscale.bulk.max.in.flight.requests";
    /** Measured with {@code ./kcscale bench connectors}: see README's bulk section. */
    static final int DEFAULT_MAX_IN_FLIGHT_REQUESTS = 2;
    /** Each request holds a batch of documents in the worker's heap, and Elasticsearch's write queue takes few more. */
    private static final int MOST = 16;

    private InFlightSettings() {
    }

    /** {@code definitions} with this setting added, so Connect checks its value and names its key. */
    static ConfigDef define(ConfigDef definitions) {
        return definitions.define(MAX_IN_FLIGHT_REQUESTS, ConfigDef.Type.INT, DEFAULT_MAX_IN_FLIGHT_REQUESTS,
                ConfigDef.Range.between(1, MOST), ConfigDef.Importance.MEDIUM,
                "Bulk requests one task keeps in flight at once (1 to " + MOST + "). Offsets are still committed only "
                        + "below records Elasticsearch has indexed, whatever order the answers come in.");
    }

    static int maxInFlightRequests(Map<String, String> config) {
        return new AbstractConfig(define(new ConfigDef()), config, false).getInt(MAX_IN_FLIGHT_REQUESTS);
    }
}
