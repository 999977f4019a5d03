package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.chart.LineChart;
import io.kcscale.scaler.input.Numbers;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Renders the {@code predict tasks --plot} chart in a real browser and checks what a person would see. */
class TasksChartChromiumTest {

    /** Every series drawn: linear, USL, recommended, burst; the target beyond the USL ceiling at 80%. */
    private static final TasksRequest REQUEST =
            new TasksRequest(450.0, null, measured(1, 2, 3, 4, 6, 8), null, "poisson", 1.0, 0.99, null);

    @TempDir
    static Path dir;

    private static String svg;

    @BeforeAll
    static void draw() {
        svg = TasksChart.svg(REQUEST);
    }

    @Test
    void theScreenshotShowsEverySeriesInItsColour() throws IOException, InterruptedException {
        Path file = Files.writeString(dir.resolve("tasks.svg"), svg);
        BufferedImage image =
                ImageIO.read(new HeadlessChromium(dir).screenshot(file).toFile());
        int inked = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                inked += (image.getRGB(x, y) & 0xffffff) == 0xffffff ? 0 : 1;
            }
        }
        assertTrue(inked > image.getWidth() * image.getHeight() / 50, "only " + inked + " non-white pixels");
        for (int colour : new int[] {0x1f77b4, 0x2ca02c, 0xff7f0e, 0xd62728}) {
            assertTrue(pixelsNear(image, colour) > 100, String.format("series colour #%06x barely drawn", colour));
        }
    }

    @Test
    void everyLabelIsRenderedInsideThePictureWithoutOverlapping() throws IOException, InterruptedException {
        Path page = Files.writeString(
                dir.resolve("tasks.html"),
                "<!DOCTYPE html><html><body style=\"margin:0\">" + svg
                        + "<pre id=\"boxes\"></pre><script>"
                        + "const svg = document.querySelector('svg').getBoundingClientRect();"
                        + "document.getElementById('boxes').textContent = [...document.querySelectorAll('svg text')].map(t => {"
                        + "  const b = t.getBoundingClientRect();"
                        + "  return [t.textContent, b.left - svg.left, b.top - svg.top, b.width, b.height].join('|');"
                        + "}).join('\\n');"
                        + "</script></body></html>");
        List<Label> labels = labels(new HeadlessChromium(dir).dumpDom(page));
        List<String> texts = labels.stream().map(Label::text).toList();
        TasksResult result = TaskPrediction.predict(REQUEST);
        for (String expected : List.of(
                "Tasks needed",
                "Target rate (records/s)",
                "target 450/s",
                "USL ceiling " + Numbers.format(result.usl().ceilingRate()) + "/s",
                "Universal Scalability Law fit",
                "recommended: 80% utilization",
                "burst: Poisson p99 in 1 s",
                "0")) {
            assertTrue(texts.contains(expected), "missing label '" + expected + "' in " + texts);
        }
        assertTrue(texts.stream().anyMatch(t -> t.startsWith("Tasks needed for a target rate")), texts.toString());
        assertTrue(texts.stream().anyMatch(t -> t.startsWith("linear: rate / ")), texts.toString());
        for (Label label : labels) {
            assertTrue(label.width() > 0 && label.height() > 0, label + " is not rendered");
            assertTrue(
                    label.x() >= 0
                            && label.y() >= 0
                            && label.x() + label.width() <= LineChart.WIDTH
                            && label.y() + label.height() <= LineChart.HEIGHT,
                    label + " sticks out of the picture");
        }
        for (int i = 0; i < labels.size(); i++) {
            for (int j = i + 1; j < labels.size(); j++) {
                assertFalse(labels.get(i).overlaps(labels.get(j)), labels.get(i) + " overlaps " + labels.get(j));
            }
        }
    }

    private record Label(String text, double x, double y, double width, double height) {
        boolean overlaps(Label other) {
            return x < other.x + other.width
                    && other.x < x + width
                    && y < other.y + other.height
                    && other.y < y + height;
        }
    }

    private static List<Label> labels(String dom) {
        Matcher pre =
                Pattern.compile("<pre id=\"boxes\">(.*?)</pre>", Pattern.DOTALL).matcher(dom);
        assertTrue(pre.find(), "the measuring script did not run: " + dom);
        List<Label> labels = new ArrayList<>();
        for (String line : pre.group(1).split("\n")) {
            String[] parts = line.replace("&amp;", "&").split("\\|");
            assertEquals(5, parts.length, line);
            labels.add(new Label(
                    parts[0],
                    Double.parseDouble(parts[1]),
                    Double.parseDouble(parts[2]),
                    Double.parseDouble(parts[3]),
                    Double.parseDouble(parts[4])));
        }
        return labels;
    }

    private static int pixelsNear(BufferedImage image, int colour) {
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y);
                boolean near = true;
                for (int shift = 0; shift <= 16; shift += 8) {
                    near &= Math.abs((rgb >> shift & 0xff) - (colour >> shift & 0xff)) <= 24;
                }
                count += near ? 1 : 0;
            }
        }
        return count;
    }

    private static List<Measurement> measured(int... tasks) {
        UniversalScalabilityLaw law = new UniversalScalabilityLaw(70, 0.05, 0.002);
        List<Measurement> points = new ArrayList<>();
        for (int n : tasks) {
            points.add(new Measurement((double) n, law.throughput(n)));
        }
        return points;
    }
}
