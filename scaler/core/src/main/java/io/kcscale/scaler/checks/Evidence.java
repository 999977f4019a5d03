package io.kcscale.scaler.checks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The evidence of a finding, built in the order it reads best; unknown (null) figures are left out. */
final class Evidence {

    private final Map<String, Object> values = new LinkedHashMap<>();

    Evidence put(String name, Object value) {
        if (value != null) {
            values.put(name, value);
        }
        return this;
    }

    /** A ratio or share rounded to two decimals, so the JSON shows 12.35 and not 12.349999. */
    Evidence ratio(String name, Double value) {
        return put(name, value == null ? null : Math.round(value * 100) / 100.0);
    }

    Map<String, Object> map() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
