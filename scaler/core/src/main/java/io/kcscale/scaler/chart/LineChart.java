package io.kcscale.scaler.chart;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A self-contained SVG line chart, for predict's model curves and the lab's measurements alike: axes
 * from zero with round ticks, axis titles that carry the units, dashed vertical markers labelled above
 * the plot, and a legend beside the plot where it cannot hide a line. A NaN leaves a gap in its line.
 */
public final class LineChart {

    public static final int WIDTH = 1120;
    public static final int HEIGHT = 600;
    /** The dash array of a dashed series. */
    public static final String DASHED = "7 5";

    private static final int PLOT_LEFT = 90;
    private static final int PLOT_RIGHT = 690;
    private static final int PLOT_TOP = 70;
    private static final int PLOT_BOTTOM = 520;
    private static final int TARGET_TICKS = 6;
    private static final String LINE_WIDTH = "2.5";

    /** How a series joins its points. */
    public enum Shape {
        /** Each value holds until the next point, then jumps: counts of whole things (tasks) from a model. */
        STEPS,
        /** Straight lines: dense samples, such as a time series. */
        LINE,
        /** Straight lines with a dot on each point: a few measurements. */
        POINTS
    }

    /** One line: y[i] at x[i]; {@code dash} is an SVG dash array, or null for a solid line. */
    public record Series(String name, String color, String dash, Shape shape, double[] x, double[] y) {}

    /** A vertical dashed line at {@code x}, labelled above the plot. */
    public record Marker(String label, double x) {}

    private final String title;
    private final String xTitle;
    private final String yTitle;
    private boolean wholeX;
    private boolean wholeY;
    private final List<Series> series = new ArrayList<>();
    private final List<Marker> markers = new ArrayList<>();

    public LineChart(String title, String xTitle, String yTitle) {
        this.title = title;
        this.xTitle = xTitle;
        this.yTitle = yTitle;
    }

    /** x counts whole things (tasks): ticks on whole numbers only. */
    public LineChart wholeNumbersOnX() {
        wholeX = true;
        return this;
    }

    /** y counts whole things (tasks): ticks on whole numbers only. */
    public LineChart wholeNumbersOnY() {
        wholeY = true;
        return this;
    }

    public LineChart add(Series line) {
        series.add(line);
        return this;
    }

    public LineChart mark(Marker marker) {
        markers.add(marker);
        return this;
    }

    public String svg() {
        Scale x = new Scale(max(true), wholeX, PLOT_LEFT, PLOT_RIGHT);
        Scale y = new Scale(max(false), wholeY, PLOT_BOTTOM, PLOT_TOP);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                        + " viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\">%n",
                WIDTH,
                HEIGHT,
                WIDTH,
                HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
        text(svg, (PLOT_LEFT + PLOT_RIGHT) / 2.0, 32, "middle", 17, title, "");
        grid(svg, x, y);
        markers(svg, x);
        for (Series line : series) {
            line(svg, line, x, y);
        }
        legend(svg);
        return svg.append("</svg>\n").toString();
    }

    /** The largest finite x (with the markers) or y. */
    private double max(boolean horizontal) {
        double max = 0;
        for (Series line : series) {
            for (double v : horizontal ? line.x() : line.y()) {
                max = Double.isFinite(v) ? Math.max(max, v) : max;
            }
        }
        if (horizontal) {
            for (Marker marker : markers) {
                max = Math.max(max, marker.x());
            }
        }
        return max;
    }

    private void grid(StringBuilder svg, Scale x, Scale y) {
        for (int i = 0; i <= x.ticks(); i++) {
            double px = x.pixel(i * x.step);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e5e5e5\"/>%n",
                    px,
                    PLOT_TOP,
                    px,
                    PLOT_BOTTOM));
            text(svg, px, PLOT_BOTTOM + 20, "middle", 12, x.format(i * x.step), "");
        }
        for (int i = 0; i <= y.ticks(); i++) {
            double py = y.pixel(i * y.step);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>%n",
                    PLOT_LEFT,
                    py,
                    PLOT_RIGHT,
                    py));
            text(svg, PLOT_LEFT - 8, py + 4, "end", 12, y.format(i * y.step), "");
        }
        svg.append(String.format(
                Locale.ROOT,
                "<path fill=\"none\" stroke=\"#222\" d=\"M%d %d V%d H%d\"/>%n",
                PLOT_LEFT,
                PLOT_TOP,
                PLOT_BOTTOM,
                PLOT_RIGHT));
        text(svg, (PLOT_LEFT + PLOT_RIGHT) / 2.0, PLOT_BOTTOM + 50, "middle", 14, xTitle, "");
        double middle = (PLOT_TOP + PLOT_BOTTOM) / 2.0;
        text(
                svg,
                24,
                middle,
                "middle",
                14,
                yTitle,
                String.format(Locale.ROOT, " transform=\"rotate(-90 24 %.1f)\"", middle));
    }

    private void markers(StringBuilder svg, Scale x) {
        for (int i = 0; i < markers.size(); i++) {
            double px = x.pixel(markers.get(i).x());
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\""
                            + " stroke-dasharray=\"4 4\"/>%n",
                    px,
                    PLOT_TOP - 12 - 16 * i,
                    px,
                    PLOT_BOTTOM));
            // labels sit above the plot, one row per marker, so that neither they nor the lines collide;
            // right of the middle they end at their line so that they stay inside the picture
            boolean right = px > (PLOT_LEFT + PLOT_RIGHT) / 2.0;
            text(
                    svg,
                    right ? px - 4 : px + 4,
                    PLOT_TOP - 4 - 16 * i,
                    right ? "end" : "start",
                    12,
                    markers.get(i).label(),
                    "");
        }
    }

    private static void line(StringBuilder svg, Series line, Scale x, Scale y) {
        List<String> d = new ArrayList<>();
        boolean drawing = false;
        for (int i = 0; i < line.x().length; i++) {
            if (!Double.isFinite(line.y()[i])) {
                drawing = false;
                continue;
            }
            double px = x.pixel(line.x()[i]);
            double py = y.pixel(line.y()[i]);
            if (!drawing) {
                d.add(String.format(Locale.ROOT, "M%.1f %.1f", px, py));
                drawing = true;
            } else if (line.shape() == Shape.STEPS) {
                // the previous count holds up to this point, then jumps
                d.add(String.format(Locale.ROOT, "H%.1f V%.1f", px, py));
            } else {
                d.add(String.format(Locale.ROOT, "L%.1f %.1f", px, py));
            }
        }
        svg.append(String.format(
                Locale.ROOT,
                "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s d=\"%s\"/>%n",
                line.color(),
                LINE_WIDTH,
                dash(line),
                String.join(" ", d)));
        for (int i = 0; line.shape() == Shape.POINTS && i < line.x().length; i++) {
            if (Double.isFinite(line.y()[i])) {
                svg.append(String.format(
                        Locale.ROOT,
                        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>%n",
                        x.pixel(line.x()[i]),
                        y.pixel(line.y()[i]),
                        line.color()));
            }
        }
    }

    private void legend(StringBuilder svg) {
        int left = PLOT_RIGHT + 20;
        for (int i = 0; i < series.size(); i++) {
            Series line = series.get(i);
            int cy = PLOT_TOP + 10 + 24 * i;
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"" + " stroke-width=\"%s\"%s/>%n",
                    left,
                    cy,
                    left + 30,
                    cy,
                    line.color(),
                    LINE_WIDTH,
                    dash(line)));
            text(svg, left + 38, cy + 4, "start", 12, line.name(), "");
        }
    }

    private static String dash(Series line) {
        return line.dash() == null ? "" : " stroke-dasharray=\"" + line.dash() + "\"";
    }

    private static void text(
            StringBuilder svg, double x, double y, String anchor, int size, String text, String extra) {
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s>%s</text>%n",
                x,
                y,
                anchor,
                size,
                extra,
                text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")));
    }

    /**
     * An axis from zero to the first tick above the data, so that no point lies on the frame, in about
     * {@link #TARGET_TICKS} steps of 1, 2, 2.5 or 5 × 10^k.
     */
    private static final class Scale {
        final double step;
        final double top;
        final double from;
        final double to;

        Scale(double dataMax, boolean whole, double from, double to) {
            double max = dataMax > 0 ? dataMax : 1;
            double rough = max / TARGET_TICKS;
            double power = Math.pow(10, Math.floor(Math.log10(rough)));
            double nice = 10 * power;
            for (double m : new double[] {1, 2, 2.5, 5}) {
                if (m * power >= rough) {
                    nice = m * power;
                    break;
                }
            }
            this.step = whole ? Math.max(1, Math.ceil(nice)) : nice;
            this.top = (Math.floor(max / step) + 1) * step;
            this.from = from;
            this.to = to;
        }

        int ticks() {
            return (int) Math.round(top / step);
        }

        double pixel(double v) {
            return from + (to - from) * v / top;
        }

        /** A tick label: thousands grouped, as many decimals as the step has (2.5 → one). */
        String format(double v) {
            int decimals = Math.max(
                    0,
                    new BigDecimal(step)
                            .round(new MathContext(12))
                            .stripTrailingZeros()
                            .scale());
            return String.format(Locale.ROOT, "%,." + decimals + "f", v);
        }
    }
}
