package io.kcscale.vocabulary;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How records arrive in time at a given rate: the datagen's config key {@code arrivals}, the
 * simulator's load phases and the task prediction's {@code arrivals} all speak of these.
 */
public enum Arrivals {
    /** Evenly spaced, 1/rate apart. */
    STEADY,
    /** A Poisson process: exponential gaps with mean 1/rate. */
    POISSON,
    /** A square wave: a burst rate for part of every period, the base rate otherwise. */
    BURSTS;

    /** The names as written in configs. */
    public static List<String> configNames() {
        return Arrays.stream(values()).map(Arrivals::configName).toList();
    }

    /** The arrivals a config names; {@link IllegalArgumentException} for any other name. */
    public static Arrivals fromConfig(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
