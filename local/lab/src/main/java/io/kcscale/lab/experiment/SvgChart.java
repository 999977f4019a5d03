package io.kcscale.lab.experiment;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A self-contained SVG chart for the reports: straight lines through measured points with a dot on
 * each (measurements, unlike predict's step charts of a model), axes from zero with round ticks,
 * axis titles that carry the units, and a legend beside the plot where it cannot hide a line.
 */
final class SvgChart {

    private static final int WIDTH = 1120;
    private static final int HEIGHT = 560;
    private static final int PLOT_LEFT = 90;
    private static final int PLOT_RIGHT = 690;
    private static final int PLOT_TOP = 60;
    private static final int PLOT_BOTTOM = 480;
    private static final int TARGET_TICKS = 6;

    /** One line; {@code dots} marks each point (off for dense time series). */
    record Series(String name, String color, boolean dashed, boolean dots, double[] x, double[] y) {
    }

    /** A labelled vertical line at {@code x}. */
    record Marker(String label, double x) {
    }

    private final String title;
    private final String xTitle;
    private final String yTitle;
    private final boolean integerX;
    private final List<Series> series = new ArrayList<>();
    private final List<Marker> markers = new ArrayList<>();

    /** @param integerX x counts whole things (tasks): ticks on whole numbers */
    SvgChart(String title, String xTitle, String yTitle, boolean integerX) {
        this.title = title;
        this.xTitle = xTitle;
        this.yTitle = yTitle;
        this.integerX = integerX;
    }

    SvgChart add(Series s) {
        series.add(s);
        return this;
    }

    SvgChart mark(Marker m) {
        markers.add(m);
        return this;
    }

    String svg() {
        Scale x = new Scale(extent(true), integerX, PLOT_LEFT, PLOT_RIGHT);
        Scale y = new Scale(extent(false), false, PLOT_BOTTOM, PLOT_TOP);
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                + " font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        out.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
        label(out, (PLOT_LEFT + PLOT_RIGHT) / 2.0, 32, "middle", 17, title, "");
        for (double v = 0; v <= x.top + 1e-9; v += x.step) {
            double px = x.pixel(v);
            out.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e6e6e6\"/>%n",
                    px, PLOT_TOP, px, PLOT_BOTTOM));
            label(out, px, PLOT_BOTTOM + 20, "middle", 12, x.format(v), "");
        }
        for (double v = 0; v <= y.top + 1e-9; v += y.step) {
            double py = y.pixel(v);
            out.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e6e6e6\"/>%n",
                    PLOT_LEFT, py, PLOT_RIGHT, py));
            label(out, PLOT_LEFT - 8, py + 4, "end", 12, y.format(v), "");
        }
        out.append(String.format(Locale.ROOT, "<path fill=\"none\" stroke=\"#222\" d=\"M%d %d V%d H%d\"/>%n",
                PLOT_LEFT, PLOT_TOP, PLOT_BOTTOM, PLOT_RIGHT));
        label(out, (PLOT_LEFT + PLOT_RIGHT) / 2.0, PLOT_BOTTOM + 50, "middle", 14, xTitle, "");
        double middle = (PLOT_TOP + PLOT_BOTTOM) / 2.0;
        label(out, 24, middle, "middle", 14, yTitle, String.format(Locale.ROOT, " transform=\"rotate(-90 24 %.1f)\"", middle));
        for (Marker m : markers) {
            double px = x.pixel(m.x());
            out.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\""
                    + " stroke-dasharray=\"3 4\"/>%n", px, PLOT_TOP, px, PLOT_BOTTOM));
            label(out, px + 4, PLOT_TOP + 14, "start", 12, m.label(), "");
        }
        for (Series s : series) {
            line(out, s, x, y);
        }
        legend(out);
        return out.append("</svg>\n").toString();
    }

    private void line(StringBuilder out, Series s, Scale x, Scale y) {
        StringBuilder d = new StringBuilder();
        for (int i = 0; i < s.x().length; i++) {
            d.append(i == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x.pixel(s.x()[i]), y.pixel(s.y()[i])));
        }
        out.append(String.format(Locale.ROOT, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2.2\"%s d=\"%s\"/>%n",
                s.color(), s.dashed() ? " stroke-dasharray=\"7 5\"" : "", d));
        for (int i = 0; s.dots() && i < s.x().length; i++) {
            out.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>%n",
                    x.pixel(s.x()[i]), y.pixel(s.y()[i]), s.color()));
        }
    }

    private void legend(StringBuilder out) {
        int left = PLOT_RIGHT + 20;
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            int cy = PLOT_TOP + 10 + 24 * i;
            out.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2.2\"%s/>%n",
                    left, cy, left + 30, cy, s.color(), s.dashed() ? " stroke-dasharray=\"7 5\"" : ""));
            label(out, left + 38, cy + 4, "start", 12, s.name(), "");
        }
    }

    /** The largest x (or y) of any point; at least 1, so an empty chart still has axes. */
    private double extent(boolean horizontal) {
        double max = 0;
        for (Series s : series) {
            for (double v : horizontal ? s.x() : s.y()) {
                max = Math.max(max, v);
            }
        }
        return max > 0 ? max : 1;
    }

    private static void label(StringBuilder out, double x, double y, String anchor, int size, String text, String extra) {
        out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s>%s</text>%n",
                x, y, anchor, size, extra, text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")));
    }

    /** Zero to a round top above the data, in about {@link #TARGET_TICKS} steps of 1, 2, 2.5 or 5 × 10^k. */
    private static final class Scale {
        final double step;
        final double top;
        final double from;
        final double to;

        Scale(double max, boolean whole, double from, double to) {
            double rough = max / TARGET_TICKS;
            double power = Math.pow(10, Math.floor(Math.log10(rough)));
            double nice = power;
            for (double m : new double[] {1, 2, 2.5, 5, 10}) {
                if (m * power >= rough) {
                    nice = m * power;
                    break;
                }
            }
            this.step = whole ? Math.max(1, Math.ceil(nice)) : nice;
            // counts get half a step of room on the right, so the last point is not drawn on the frame
            this.top = Math.ceil(max / step) * step + (whole ? step / 2 : 0);
            this.from = from;
            this.to = to;
        }

        double pixel(double v) {
            return from + (to - from) * v / top;
        }

        /** A tick label: thousands grouped, as many decimals as the step has (2.5 → one). */
        String format(double v) {
            int decimals = Math.max(0, new BigDecimal(step).round(new MathContext(12)).stripTrailingZeros().scale());
            return String.format(Locale.ROOT, "%,." + decimals + "f", v);
        }
    }
}
