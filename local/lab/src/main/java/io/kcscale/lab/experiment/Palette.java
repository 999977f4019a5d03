package io.kcscale.lab.experiment;

/** Line colours that stay apart for the colour-blind (Okabe–Ito), in the order series take them. */
final class Palette {

    private static final String[] COLORS = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"
    };

    private Palette() {}

    static String color(int index) {
        return COLORS[index % COLORS.length];
    }
}
