package io.kcscale.connectors.datagen;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** How records arrive in time once {@code rate.per.task} is set (config key {@code arrival}). */
enum Arrival {
    /** Evenly spaced, 1/rate apart. */
    CONSTANT,
    /** A Poisson process: exponential gaps with mean 1/rate. */
    POISSON,
    /** A square wave: burst.rate for burst.seconds of every burst.period.seconds, rate.per.task otherwise. */
    BURSTS;

    /** The names as written in configs. */
    static List<String> configNames() {
        return Arrays.stream(values()).map(Arrival::configName).collect(Collectors.toList());
    }

    static Arrival fromConfig(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
