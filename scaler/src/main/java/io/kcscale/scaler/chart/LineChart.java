package io.kcscale.scaler.chart;

import io.kcscale.scaler.input.Numbers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A self-contained SVG line chart: axes with tick labels, axis titles, a legend, dashed vertical
 * markers. Series are drawn as steps because they count whole things (tasks); a NaN leaves a gap.
 */
public final class LineChart {

    public static final int WIDTH = 960;
    public static final int HEIGHT = 600;
    private static final int LEFT = 90;
    private static final int RIGHT = 40;
    private static final int TOP = 70;
    private static final int BOTTOM = 80;
    private static final int TICKS = 6;

    /** One line: y[i] at x[i]; {@code dash} is an SVG dash array, or null for a solid line. */
    public record Series(String name, String color, String dash, double[] x, double[] y) {
    }

    /** A vertical dashed line at {@code x}, labelled at its top. */
    public record Marker(String label, double x) {
    }

    private final String title;
    private final String xTitle;
    private final String yTitle;
    private final List<Series> series = new ArrayList<>();
    private final List<Marker> markers = new ArrayList<>();

    public LineChart(String title, String xTitle, String yTitle) {
        this.title = title;
        this.xTitle = xTitle;
        this.yTitle = yTitle;
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
        Axis x = new Axis(max(true));
        Axis y = new Axis(max(false));
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"14\">%n",
                WIDTH, HEIGHT, WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
        text(svg, WIDTH / 2.0, 32, "middle", 18, title, "");
        grid(svg, x, y);
        for (int i = 0; i < markers.size(); i++) {
            double px = px(x, markers.get(i).x());
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\""
                    + " stroke-dasharray=\"4 4\"/>%n", px, TOP - 12 - 16 * i, px, HEIGHT - BOTTOM));
            // labels sit above the plot, one row per marker, so that neither they nor the legend collide;
            // right of the middle they end at their line so that they stay inside the picture
            boolean right = px > WIDTH / 2.0;
            text(svg, right ? px - 4 : px + 4, TOP - 4 - 16 * i, right ? "end" : "start", 12, markers.get(i).label(), "");
        }
        for (Series line : series) {
            svg.append("<path fill=\"none\" stroke-width=\"2.5\" stroke=\"").append(line.color()).append('"')
                    .append(line.dash() == null ? "" : " stroke-dasharray=\"" + line.dash() + "\"")
                    .append(" d=\"").append(path(line, x, y)).append("\"/>\n");
        }
        legend(svg);
        svg.append("</svg>\n");
        return svg.toString();
    }

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

    private void grid(StringBuilder svg, Axis x, Axis y) {
        int bottom = HEIGHT - BOTTOM;
        for (int i = 0; i <= x.ticks(); i++) {
            double v = i * x.step;
            double px = px(x, v);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e5e5e5\"/>%n",
                    px, TOP, px, bottom));
            text(svg, px, bottom + 22, "middle", 13, Numbers.format(v), "");
        }
        for (int i = 0; i <= y.ticks(); i++) {
            double v = i * y.step;
            double py = py(y, v);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>%n",
                    LEFT, py, WIDTH - RIGHT, py));
            text(svg, LEFT - 10, py + 5, "end", 13, Numbers.format(v), "");
        }
        svg.append(String.format(Locale.ROOT, "<path fill=\"none\" stroke=\"#222\" d=\"M%d %d V%d H%d\"/>%n",
                LEFT, TOP, bottom, WIDTH - RIGHT));
        text(svg, LEFT + (WIDTH - LEFT - RIGHT) / 2.0, HEIGHT - 24, "middle", 15, xTitle, "");
        double middle = TOP + (bottom - TOP) / 2.0;
        text(svg, 26, middle, "middle", 15, yTitle,
                String.format(Locale.ROOT, " transform=\"rotate(-90 26 %.1f)\"", middle));
    }

    private void legend(StringBuilder svg) {
        int rowHeight = 22;
        int width = 20 + series.stream().mapToInt(s -> s.name().length()).max().orElse(0) * 8 + 50;
        int left = LEFT + 16;
        int top = TOP + 24;
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"white\""
                + " fill-opacity=\"0.9\" stroke=\"#999\"/>%n", left, top, width, series.size() * rowHeight + 12));
        for (int i = 0; i < series.size(); i++) {
            Series line = series.get(i);
            int cy = top + 18 + i * rowHeight;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"2.5\""
                    + " stroke=\"%s\"%s/>%n", left + 10, cy - 5, left + 44, cy - 5, line.color(),
                    line.dash() == null ? "" : " stroke-dasharray=\"" + line.dash() + "\""));
            text(svg, left + 54, cy, "start", 13, line.name(), "");
        }
    }

    private static String path(Series line, Axis x, Axis y) {
        StringBuilder d = new StringBuilder();
        boolean drawing = false;
        for (int i = 0; i < line.x().length; i++) {
            if (!Double.isFinite(line.y()[i])) {
                drawing = false;
                continue;
            }
            double px = px(x, line.x()[i]);
            double py = py(y, line.y()[i]);
            if (drawing) {
                // a step: the previous count holds up to this sample, then jumps
                d.append(String.format(Locale.ROOT, "H%.1f V%.1f ", px, py));
            } else {
                d.append(String.format(Locale.ROOT, "M%.1f %.1f ", px, py));
                drawing = true;
            }
        }
        return d.toString().trim();
    }

    private static double px(Axis x, double v) {
        return LEFT + v / x.max * (WIDTH - LEFT - RIGHT);
    }

    private static double py(Axis y, double v) {
        return HEIGHT - BOTTOM - v / y.max * (HEIGHT - TOP - BOTTOM);
    }

    private static void text(StringBuilder svg, double x, double y, String anchor, int size, String text, String extra) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s>%s</text>%n",
                x, y, anchor, size, extra, escape(text)));
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** An axis from 0 to a round maximum, with ticks at 1, 2 or 5 x 10^k. */
    private static final class Axis {
        final double step;
        final double max;

        Axis(double dataMax) {
            double raw = (dataMax > 0 ? dataMax : 1) / (TICKS - 1);
            double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
            double fraction = raw / magnitude;
            step = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * magnitude;
            max = Math.ceil((dataMax > 0 ? dataMax : 1) / step) * step;
        }

        int ticks() {
            return (int) Math.round(max / step);
        }
    }
}
