package io.kcscale.scaler.predict;

import io.kcscale.scaler.input.InvalidInputException;

import java.util.Locale;

/** How records arrive: at a steady rate, or as a Poisson process that bursts above its mean. */
public enum Arrivals {
    STEADY, POISSON;

    public static Arrivals of(String field, String text) {
        if (text == null) {
            return STEADY;
        }
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(field, "must be 'steady' or 'poisson', got '" + text + "'");
        }
    }
}
