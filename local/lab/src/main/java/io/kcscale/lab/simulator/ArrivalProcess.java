package io.kcscale.lab.simulator;

/** How records of a load phase arrive. */
public enum ArrivalProcess {
    /** Evenly spaced: exactly the phase's rate, as the datagen's {@code arrival=constant}. */
    CONSTANT,
    /** A Poisson process at the phase's rate, as the datagen's {@code arrival=poisson}. */
    POISSON
}
